// Drop-down list of the built-in sample sessions (public/samples/index.json, same origin).
import { useEffect, useRef, useState } from "react";
import { openSample } from "./openSession";
import { useAppStore } from "../../page/store";

export function SamplesMenu() {
  const samples = useAppStore((state) => state.samples);
  const samplesError = useAppStore((state) => state.samplesError);
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    window.addEventListener("mousedown", close);
    window.addEventListener("keydown", escape);
    return () => {
      window.removeEventListener("mousedown", close);
      window.removeEventListener("keydown", escape);
    };
  }, [open]);

  return (
    <div className="menu" ref={rootRef}>
      <button
        type="button"
        className="btn"
        data-testid="samples-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        Samples ▾
      </button>
      {open && (
        <div className="menu-list" role="menu">
          {samplesError && <div className="menu-note">{samplesError}</div>}
          {!samplesError && samples.length === 0 && <div className="menu-note">No samples</div>}
          {samples.map((sample) => (
            <button
              key={sample.id}
              type="button"
              role="menuitem"
              className="menu-item"
              data-testid={`sample-item-${sample.id}`}
              onClick={() => {
                setOpen(false);
                void openSample(sample);
              }}
            >
              <span className="menu-item-title">{sample.title}</span>
              {sample.description && <span className="menu-item-desc">{sample.description}</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
