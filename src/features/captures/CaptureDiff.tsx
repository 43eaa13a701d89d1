// Request tab, "Diff with capture": the selected turn's rebuilt body against the wire — the
// attached capture matched to that turn (same Monaco diff as the Diff tab; both sides
// pretty-printed with sorted keys) — with where it first departs (byte offset and the part of the
// request) and every differing JSON path named and classed: not derivable (and why), learnt from
// another capture, or a bug.
import { useEffect, useState } from "react";
import type { CaptureDiffResult } from "../../app/captureCheck";
import { loadCaptureDiff } from "./capturesState";
import { useAppStore } from "../../page/store";
import { LazyDiffEditor } from "../prefix/index";

type State = { status: "loading" } | { status: "done"; result: CaptureDiffResult | null } | { status: "error"; error: string };

export function CaptureDiff({ turn }: { turn: number }) {
  const [state, setState] = useState<State>({ status: "loading" });
  const options = useAppStore((store) => store.options);
  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    loadCaptureDiff(turn).then(
      (result) => live && setState({ status: "done", result }),
      (error: unknown) => live && setState({ status: "error", error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [turn, options]);

  if (state.status === "loading") return <div className="center-message muted">Comparing turn {turn} with its capture…</div>;
  if (state.status === "error") return <div className="center-message error-text">Could not compare with the capture: {state.error}</div>;
  const result = state.result;
  if (!result) {
    return (
      <div className="center-message muted" data-testid="capture-diff-none">
        No attached capture carries the conversation of turn {turn}. Attach (or drop) the captured request body of this turn.
      </div>
    );
  }
  return (
    <div className="request-view" data-testid="capture-diff">
      <div className="view-toolbar">
        <span className="muted">
          rebuilt against the wire · left: {result.source} (captured) · right: rebuilt turn {result.turn} · keys sorted
        </span>
        <span className="strong" data-testid="capture-diff-verdict">
          {result.differences.length === 0 ? "equal to the wire" : `${result.differences.length} differing field${result.differences.length === 1 ? "" : "s"}`}
        </span>
      </div>
      {result.first && (
        <div className="muted pad" data-testid="capture-diff-first">
          first difference after {result.first.offset.toLocaleString("en-US")} equal bytes, in {result.first.part} (<code>{result.first.path}</code>)
        </div>
      )}
      {result.differences.length > 0 && (
        <ul className="lint-list" data-testid="capture-diff-paths">
          {result.differences.map((difference) => (
            <li key={difference.path} data-class={difference.class}>
              <code>{difference.path}</code> — <span className="strong">{difference.class}</span>: {difference.reason}
            </li>
          ))}
        </ul>
      )}
      <LazyDiffEditor previousJson={result.capturedJson} currentJson={result.rebuiltJson} boundaryOffset={null} boundaryLabel="" />
    </div>
  );
}
