// Modal dialog to paste session text (JSONL); the text is read by the worker like a file.
import { useEffect, useRef, useState } from "react";
import { openPastedText } from "./openSession";
import { setAppState, useAppStore } from "../../page/store";

export function PasteButton() {
  return (
    <button type="button" className="btn" data-testid="paste-button" onClick={() => setAppState({ pasteOpen: true })}>
      Paste JSONL
    </button>
  );
}

export function PasteDialog() {
  const open = useAppStore((state) => state.pasteOpen);
  const [text, setText] = useState("");
  const textareaRef = useRef<HTMLTextAreaElement | null>(null);

  useEffect(() => {
    if (open) textareaRef.current?.focus();
  }, [open]);

  if (!open) return null;
  const close = () => setAppState({ pasteOpen: false });
  const submit = () => {
    if (text.trim() === "") return;
    close();
    void openPastedText(text);
    setText("");
  };

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="paste-title">
        <div className="modal-title" id="paste-title">
          Paste a session (JSONL)
        </div>
        <textarea
          ref={textareaRef}
          className="paste-textarea"
          data-testid="paste-textarea"
          spellCheck={false}
          placeholder={'{"type":"session","version":3,…}\n{"type":"message",…}'}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") close();
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit();
          }}
        />
        <div className="modal-actions">
          <span className="hint">Ctrl+Enter to open · Esc to cancel</span>
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="button" className="btn primary" data-testid="paste-submit" disabled={text.trim() === ""} onClick={submit}>
            Open
          </button>
        </div>
      </div>
    </div>
  );
}
