// The top bar, two rows: inputs and what is open (file, format, entries, warnings) above; the
// pipeline controls (profile, provider shape, database session, branch, request-header source) below.
// The controls of the features only the page's mount may know (following a file, the sessions
// library, sharing, simulating) come in as slots from the mount (./App.tsx).
import type { ReactNode } from "react";
import { BranchPicker } from "./BranchPicker";
import { CompareButton } from "../features/compare/index";
import { HeaderControl } from "../features/captures/index";
import { NotesToggle } from "./NotesToggle";
import { OpenFileButton, PasteButton, SamplesMenu, SessionPicker } from "../features/open/index";
import { ProfileSelect } from "./ProfileSelect";
import { ProviderSelect } from "./ProviderSelect";
import { SessionInfo } from "../features/overview/index";
import { SessionCostInfo } from "../features/prices/index";
import { ThemeToggle } from "./ThemeToggle";

interface TopBarSlots {
  /** After the file inputs: the inputs that follow a file or list a folder of sessions. */
  followInputs: ReactNode;
  /** After the session's cost: the share control. */
  share: ReactNode;
  /** Before the compare button: the simulator's button. */
  simulate: ReactNode;
}

export function TopBar({ followInputs, share, simulate }: TopBarSlots) {
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
          {followInputs}
        </div>
        {/* What is open and what acts on it: one piece when the row breaks, so no control is left alone on a line. */}
        <div className="topbar-open">
          <SessionInfo />
          <SessionCostInfo />
          {share}
          <ThemeToggle />
        </div>
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
        {simulate}
        <CompareButton />
      </div>
    </header>
  );
}
