// Full-page overlay shown while files are dragged over the window.
export function DropOverlay({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div className="drop-card">
        <div className="drop-title">Drop to open</div>
        <div className="drop-text">A session file (.jsonl) opens; a captured request (.json) becomes the request header.</div>
      </div>
    </div>
  );
}
