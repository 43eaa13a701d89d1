// "Open file" button backed by a hidden file input (the input is what e2e tests drive). Picked
// files are always sessions (a dropped .json is a captured request instead); several may be picked
// at once: an opencode database with its -wal file (FM-OC-1). It accepts every name the intake
// reads (compressed containers included).
import { useRef } from "react";
import { OPENABLE_ACCEPT } from "../../core/intake/openableNames";
import { openFiles } from "./openSession";

export function OpenFileButton() {
  const inputRef = useRef<HTMLInputElement | null>(null);
  return (
    <>
      <button
        type="button"
        className="btn primary"
        onClick={() => inputRef.current?.click()}
        title="Open a session file (or drop it anywhere). For an opencode database, pick opencode.db and opencode.db-wal together."
      >
        Open file
      </button>
      <input
        ref={inputRef}
        type="file"
        hidden
        multiple
        accept={OPENABLE_ACCEPT}
        data-testid="open-file-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = "";
          if (files.length > 0) void openFiles(files);
        }}
      />
    </>
  );
}
