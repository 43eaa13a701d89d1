// The overlays the keyboard opens: "go to turn" (g, Ctrl+G) and the shortcuts panel (?).
import { useState } from "react";
import { selectIndex } from "./selection";
import { closeOverlay, useOverlayStore } from "./overlays";
import { useAppStore } from "./store";
import { SHORTCUTS } from "./shortcuts";

function GotoTurn() {
  const timeline = useAppStore((state) => state.analysis?.timeline ?? []);
  const turns = useAppStore((state) => state.analysis?.turns.length ?? 0);
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const go = () => {
    const turn = Number(text.trim());
    const index = Number.isInteger(turn) ? timeline.findIndex((item) => item.kind === "turn" && item.turn === turn) : -1;
    if (index < 0) {
      setProblem(`No turn ${text.trim() || "?"}: the branch has turns 1 to ${turns}.`);
      return;
    }
    closeOverlay();
    selectIndex(index);
  };
  return (
    <div className="overlay-box goto-turn" role="dialog" aria-label="Go to turn" data-testid="goto-turn">
      <label className="field">
        <span className="field-label">Go to turn</span>
        <input
          autoFocus
          data-testid="goto-turn-input"
          inputMode="numeric"
          value={text}
          placeholder={`1–${turns}`}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setProblem(null);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              go();
            }
          }}
        />
      </label>
      {problem && <div className="error-text">{problem}</div>}
    </div>
  );
}

function ShortcutsPanel() {
  return (
    <div className="overlay-box shortcuts-panel" role="dialog" aria-label="Keyboard shortcuts" data-testid="shortcuts-panel">
      <div className="strong">Keyboard shortcuts</div>
      <table className="shortcuts-table">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.what} data-testid="shortcut">
              <td>
                {shortcut.keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 && " or "}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </td>
              <td>{shortcut.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="muted">Shortcuts do nothing while you type in a field or in the editor (Ctrl+G excepted). Esc closes.</div>
    </div>
  );
}

export function KeyboardOverlays() {
  const overlay = useOverlayStore((state) => state.overlay);
  if (overlay === null) return null;
  return (
    <div className="overlay-backdrop" onClick={(event) => event.target === event.currentTarget && closeOverlay()}>
      {overlay === "goto" ? <GotoTurn /> : <ShortcutsPanel />}
    </div>
  );
}
