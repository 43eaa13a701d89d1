// The top bar's "Watch file" button: a session file picked through the File System Access API
// and followed as its agent writes it. Browsers without the API get the button disabled, with
// the reason (the library's "Sessions folder" button beside it says the same).
import { canFollowFiles } from "../../page/fileSystemAccess";
import { pickAndFollow } from "./liveState";

const NO_API = "This browser has no File System Access API (Chrome and Edge have it): open or drop a file instead; it is shown as it was when opened.";

export function WatchFileButton() {
  const files = canFollowFiles();
  return (
    <button
      type="button"
      className="btn"
      disabled={!files}
      onClick={() => void pickAndFollow()}
      title={files ? "Open a session file and follow it as the agent writes it: new turns join the timeline, new cache breaks and compactions are announced." : NO_API}
    >
      Watch file…
    </button>
  );
}
