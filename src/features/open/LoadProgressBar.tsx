// Progress of the input being read (bytes and lines), with a cancel button. While the turns read
// so far are already shown (a provisional view), it says so.
import { cancelOpen } from "./openSession";
import { useAppStore } from "../../page/store";
import { formatBytes, formatInt } from "../../ui/format";

export function LoadProgressBar() {
  const status = useAppStore((state) => state.loadStatus);
  const name = useAppStore((state) => state.loadingName);
  const progress = useAppStore((state) => state.progress);
  const provisional = useAppStore((state) => state.analysisProvisional && state.session?.provisional !== undefined);
  if (status !== "loading") return null;
  const total = progress?.totalBytes ?? null;
  const fraction = total && progress ? Math.min(1, progress.bytesRead / total) : null;
  return (
    <div className="load-progress" data-testid="load-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}>
      <div className={`load-progress-track${fraction === null ? " indeterminate" : ""}`}>
        <div className="load-progress-fill" style={{ width: fraction === null ? "30%" : `${fraction * 100}%` }} />
      </div>
      <span className="load-progress-text">
        Reading {name ?? "input"}
        {progress ? ` · ${formatBytes(progress.bytesRead)}${total ? ` of ${formatBytes(total)}` : ""} · ${formatInt(progress.lines)} lines` : ""}
      </span>
      {provisional && (
        <span className="load-progress-text muted" data-testid="provisional-note" title="The final analysis of the whole file replaces these turns; the selected turn stays.">
          showing the turns read so far (a branch ends at the last entry read so far)
        </span>
      )}
      <button type="button" className="btn small" onClick={cancelOpen}>
        Cancel
      </button>
    </div>
  );
}
