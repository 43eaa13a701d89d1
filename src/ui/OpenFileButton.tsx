// "Open" button backed by a hidden file input (the input is what e2e tests drive).
import { useRef } from "react";
import { openFile } from "../state/actions";

export function OpenFileButton() {
  const inputRef = useRef<HTMLInputElement | null>(null);
  return (
    <>
      <button type="button" className="btn primary" onClick={() => inputRef.current?.click()} title="Open a session file (or drop it anywhere)">
        Open file
      </button>
      <input
        ref={inputRef}
        type="file"
        hidden
        accept=".jsonl,.json,.txt,.html,application/json,text/plain"
        data-testid="open-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void openFile(file);
        }}
      />
    </>
  );
}
