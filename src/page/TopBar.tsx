// The top bar, two rows: inputs and what is open (file, format, entries, warnings) above; the
// pipeline controls (profile, provider shape, database session, branch, request-header source) below.
import { BranchPicker } from "./BranchPicker";
import { CompareButton } from "../features/compare/CompareView";
import { HeaderControl } from "../features/captures/HeaderControl";
import { NotesToggle } from "./NotesToggle";
import { OpenFileButton } from "../features/open/OpenFileButton";
import { PasteButton } from "../features/open/PasteDialog";
import { LiveButtons } from "../features/live/LiveButtons";
import { ProfileSelect } from "./ProfileSelect";
import { ProviderSelect } from "./ProviderSelect";
import { SamplesMenu } from "../features/open/SamplesMenu";
import { SessionInfo } from "../features/overview/SessionInfo";
import { SessionPicker } from "../features/open/SessionPicker";
import { ShareButton } from "../features/share/ShareDialog";
import { SimulateButton } from "../features/simulator/SimulatorPanel";
import { SessionCostInfo } from "../features/prices/SessionCostInfo";
import { ThemeToggle } from "./ThemeToggle";

export function TopBar() {
  return (
    <header className="topbar">
      <div className="topbar-row">
        <div className="brand" title="Contextscope: what the model saw, turn by turn">
          <img src="./favicon.svg" alt="" width={18} height={18} />
          <span className="brand-name">Contextscope</span>
        </div>
        <div className="group">
          <OpenFileButton />
          <PasteButton />
          <SamplesMenu />
          <LiveButtons />
        </div>
        <SessionInfo />
        <SessionCostInfo />
        <ShareButton />
        <ThemeToggle />
      </div>
      <div className="topbar-row controls">
        <ProfileSelect />
        <NotesToggle />
        <ProviderSelect />
        <SessionPicker />
        <BranchPicker />
        <span className="divider" />
        <HeaderControl />
        <span className="divider" />
        <SimulateButton />
        <CompareButton />
      </div>
    </header>
  );
}
