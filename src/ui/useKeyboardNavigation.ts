// Timeline keyboard shortcuts: j/k and arrows step, Home/End jump. Ignored while typing in an
// input, a select, a textarea (Monaco's input is one) or an editable element, and with modifiers.
import { useEffect } from "react";
import { selectEdge, stepSelection } from "../state/actions";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest(".monaco-editor")) return true;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function useKeyboardNavigation(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      switch (event.key) {
        case "j":
        case "ArrowDown":
          stepSelection(1);
          break;
        case "k":
        case "ArrowUp":
          stepSelection(-1);
          break;
        case "Home":
          selectEdge("first");
          break;
        case "End":
          selectEdge("last");
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [enabled]);
}
