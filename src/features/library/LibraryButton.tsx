// The top bar's sessions library button: "Sessions folder…" opens a folder through the File
// System Access API as the library; once a folder is open, "Sessions" shows or hides the table,
// and a folder from an earlier visit can be opened again with one click (the browser asks
// first). Browsers without the API get the button disabled, with the reason.
import { useEffect } from "react";
import { canOpenFolders } from "../../page/fileSystemAccess";
import { forgetRememberedFolder, loadRememberedFolder, pickLibraryFolder, reopenRememberedFolder, showLibrary, useLibraryStore } from "./libraryState";

const NO_API = "This browser has no File System Access API (Chrome and Edge have it): open or drop a file instead; it is shown as it was when opened.";

export function LibraryButton() {
  const folderName = useLibraryStore((state) => state.folderName);
  const libraryOpen = useLibraryStore((state) => state.open);
  const remembered = useLibraryStore((state) => state.remembered);
  useEffect(() => {
    void loadRememberedFolder();
  }, []);
  const folders = canOpenFolders();
  if (folderName !== null) {
    return (
      <button type="button" className={`btn${libraryOpen ? " active" : ""}`} onClick={() => showLibrary(!libraryOpen)} title={`The sessions in ${folderName}`}>
        Sessions
      </button>
    );
  }
  if (remembered !== null) {
    return (
      <span className="group">
        <button type="button" className="btn" onClick={() => void reopenRememberedFolder()} title="Open the sessions folder of your last visit again (the browser asks to allow it)">
          {`Sessions in ${remembered}`}
        </button>
        <button type="button" className="btn small" aria-label="Forget this folder" title="Forget this folder" onClick={() => void forgetRememberedFolder()}>
          ×
        </button>
      </span>
    );
  }
  return (
    <button
      type="button"
      className="btn"
      disabled={!folders}
      onClick={() => void pickLibraryFolder()}
      title={folders ? "Open a folder of sessions (~/.claude/projects, ~/.codex/sessions, ~/.pi/agent/sessions, …) as a table of sessions; nothing is uploaded." : NO_API}
    >
      Sessions folder…
    </button>
  );
}
