// Full-page overlay shown while files are dragged over the window.
export function DropOverlay({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div className="drop-card">
        <div className="drop-title">Drop to open</div>
        <div className="drop-text">
          Session files open: a transcript, its sub-agents' files or their whole folder, a session database with its WAL, an
          exported session. A captured request body (.json) dropped with them fills in the system prompt and tools the session
          file does not hold; a saved reproduction reopens its view.
        </div>
      </div>
    </div>
  );
}
