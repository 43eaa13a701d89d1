// Explains the editor's highlight colours.
export function RequestLegend() {
  return (
    <div className="legend" aria-label="Legend">
      <span className="legend-item">
        <span className="swatch not-recorded" /> not recorded in the session
      </span>
      <span className="legend-item">
        <span className="swatch synthesized" /> inserted by the pipeline
      </span>
      <span className="legend-item">
        <span className="swatch inferred" /> inferred behaviour
      </span>
      <span className="legend-item" data-testid="legend-note">
        <span className="swatch note" /> reply-language note
      </span>
      <span className="legend-item muted">hover a highlight for details</span>
    </div>
  );
}
