// Where the cost panel sits and how it is left: below the centre panel's tabs (they stay usable
// while it is open), closed by Escape, and focus handed back to what opened it (the top bar's
// cost button) when it closes, by Escape or its Close button.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { setPricesOpen } from "./pricesState";

/** The panel's top edge: just below the tab row (or the top bar, before a session's tabs exist). */
function topBelowTabs(): number {
  const tabs = document.querySelector('[role="tablist"]') ?? document.querySelector(".topbar");
  return tabs ? Math.round(tabs.getBoundingClientRect().bottom) + 4 : 0;
}

/** The panel's top (px), and `close`, which gives focus back to the element focused when it opened. */
export function usePanelPlacement(): { top: number; close: () => void } {
  const opener = useRef<Element | null>(null);
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    opener.current = document.activeElement;
    setTop(topBelowTabs());
  }, []);
  const close = () => {
    setPricesOpen(false);
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      closeRef.current();
    };
    const onResize = () => setTop(topBelowTabs());
    document.addEventListener("keydown", onKey);
    window.addEventListener("resize", onResize);
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", onResize);
    };
  }, []);
  return { top, close };
}
