// Page keyboard shortcuts (the list is src/page/shortcuts.ts): j/k and arrows step, Home/End jump,
// g or Ctrl+G go to a turn, / searches, ? lists the shortcuts, Esc closes what they opened.
// Ignored while typing in an input, a select, a textarea (Monaco's input is one) or an editable
// element, and with modifiers (Ctrl+G excepted, which also works while typing outside Monaco).
import { useEffect } from "react";
import { selectEdge, stepSelection } from "./selection";
import { closeOverlay, openOverlay, useOverlayStore } from "./overlays";
import { closeSearch, openSearch, useSearchStore } from "../features/search/searchState";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest(".monaco-editor")) return true;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function useKeyboardNavigation(enabled: boolean): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (event.key === "Escape" && (useOverlayStore.getState().overlay !== null || useSearchStore.getState().open)) {
        closeOverlay();
        closeSearch();
        event.preventDefault();
        return;
      }
      if (enabled && event.ctrlKey && !event.metaKey && !event.altKey && (event.key === "g" || event.key === "G")) {
        closeSearch();
        openOverlay("goto");
        event.preventDefault();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      if (event.key === "?") {
        closeSearch();
        openOverlay(useOverlayStore.getState().overlay === "shortcuts" ? null : "shortcuts");
        event.preventDefault();
        return;
      }
      if (!enabled) return;
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
        case "g":
          closeSearch();
          openOverlay("goto");
          break;
        case "/":
          closeOverlay();
          openSearch();
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
