// The top bar: opening inputs, pipeline controls and what is open.
import { BranchPicker } from "./BranchPicker";
import { HeaderControl } from "./HeaderControl";
import { OpenFileButton } from "./OpenFileButton";
import { PasteButton } from "./PasteDialog";
import { ProfileSelect } from "./ProfileSelect";
import { ProviderSelect } from "./ProviderSelect";
import { SamplesMenu } from "./SamplesMenu";
import { SessionInfo } from "./SessionInfo";

export function TopBar() {
  return (
    <header className="topbar">
      <div className="brand" title="Contextscope: what the model saw, turn by turn">
        <img src="./favicon.svg" alt="" width={18} height={18} />
        <span>Contextscope</span>
      </div>
      <div className="group">
        <OpenFileButton />
        <PasteButton />
        <SamplesMenu />
      </div>
      <div className="group">
        <ProfileSelect />
        <ProviderSelect />
        <BranchPicker />
      </div>
      <HeaderControl />
      <div className="spacer" />
      <SessionInfo />
    </header>
  );
}
