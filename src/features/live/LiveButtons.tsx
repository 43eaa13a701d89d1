// The top bar's live inputs: "Watch file" (a session file followed as its agent writes it) and
// "Sessions folder" (a folder listed as the sessions library), both through the File System Access
// API; the library's button comes back once a folder is open, and a folder from an earlier visit
// can be opened again with one click (the browser asks first). Browsers without the API get the
// buttons disabled, with the reason.
import { useEffect } from "react";
import { canFollowFiles, canOpenFolders } from "./fileSystemAccess";
import { pickAndFollow } from "./liveState";
import { forgetRememberedFolder, loadRememberedFolder, pickLibraryFolder, reopenRememberedFolder, showLibrary, useLibraryStore } from "../library/libraryState";

const NO_API = "This browser has no File System Access API (Chrome and Edge have it): open or drop a file instead; it is shown as it was when opened.";

export function LiveButtons() {
  const folderName = useLibraryStore((state) => state.folderName);
  const libraryOpen = useLibraryStore((state) => state.open);
  const remembered = useLibraryStore((state) => state.remembered);
  useEffect(() => {
    void loadRememberedFolder();
  }, []);
  const files = canFollowFiles();
  const folders = canOpenFolders();
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={!files}
        onClick={() => void pickAndFollow()}
        title={files ? "Open a session file and follow it as the agent writes it: new turns join the timeline, new cache breaks and compactions are announced." : NO_API}
      >
        Watch file…
      </button>
      {folderName !== null ? (
        <button type="button" className={`btn${libraryOpen ? " active" : ""}`} onClick={() => showLibrary(!libraryOpen)} title={`The sessions in ${folderName}`}>
          Sessions
        </button>
      ) : remembered !== null ? (
        <span className="group">
          <button type="button" className="btn" onClick={() => void reopenRememberedFolder()} title="Open the sessions folder of your last visit again (the browser asks to allow it)">
            {`Sessions in ${remembered}`}
          </button>
          <button type="button" className="btn small" aria-label="Forget this folder" title="Forget this folder" onClick={() => void forgetRememberedFolder()}>
            ×
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="btn"
          disabled={!folders}
          onClick={() => void pickLibraryFolder()}
          title={folders ? "Open a folder of sessions (~/.claude/projects, ~/.codex/sessions, ~/.pi/agent/sessions, …) as a table of sessions; nothing is uploaded." : NO_API}
        >
          Sessions folder…
        </button>
      )}
    </>
  );
}
