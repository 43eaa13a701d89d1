// The top bar, two rows: inputs and what is open (file, format, entries, warnings) above; the
// pipeline controls (profile, provider shape, database session, branch, request-header source) below.
import { BranchPicker } from "./BranchPicker";
import { CompareButton } from "./CompareView";
import { HeaderControl } from "./HeaderControl";
import { NotesToggle } from "./NotesToggle";
import { OpenFileButton } from "./OpenFileButton";
import { PasteButton } from "./PasteDialog";
import { LiveButtons } from "./LiveButtons";
import { ProfileSelect } from "./ProfileSelect";
import { ProviderSelect } from "./ProviderSelect";
import { SamplesMenu } from "./SamplesMenu";
import { SessionInfo } from "./SessionInfo";
import { SessionPicker } from "./SessionPicker";
import { ShareButton } from "./ShareDialog";
import { SimulateButton } from "./SimulatorPanel";
import { SessionCostInfo } from "./SessionCostInfo";
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
