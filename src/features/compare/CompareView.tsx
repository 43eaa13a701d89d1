// The compare view: the open session (A) against a second session or another branch (B). Turns
// aligned side by side (by user message, then by position), the first pair whose requests differ
// for the cache highlighted and one click away, totals side by side, and the selected pair's two
// requests in the same Monaco diff as the Diff tab. Every session text is rendered as text.
import { useRef, type DragEvent } from "react";
import type { SideTotals } from "../../core/compare/types";
import { closeCompareView, compareWithBranch, openCompareView, compareWithFile, jumpToFirstDifference, selectComparePair, useCompareStore } from "./compareState";
import { useAppStore } from "../../page/store";
import "./compare.css";
import { formatInt } from "../../ui/format";
import { formatPriced } from "../../core/pricing/index";
import { LazyDiffEditor } from "../prefix/LazyDiffEditor";

const TOTAL_ROWS: { key: keyof SideTotals; label: string }[] = [
  { key: "turns", label: "turns" },
  { key: "tokensSent", label: "tokens sent (estimate)" },
  { key: "largestRequest", label: "largest request (tokens)" },
  { key: "recordedInput", label: "recorded input tokens" },
  { key: "breaks", label: "prefix breaks" },
  { key: "unexpectedBreaks", label: "unexpected breaks" },
  { key: "compactions", label: "compactions" },
  { key: "cost", label: "cost (recorded usage, your prices)" },
];

function totalText(value: SideTotals[keyof SideTotals]): string {
  if (value === null) return "—";
  if (typeof value === "number") return formatInt(value);
  return formatPriced(value.recorded);
}

function stopFileDrag(event: DragEvent): boolean {
  if (!Array.from(event.dataTransfer.types).includes("Files")) return false;
  // The page-wide drop opens a main session; a drop here is side B.
  event.preventDefault();
  event.stopPropagation();
  return true;
}

function SourceControls() {
  const inputRef = useRef<HTMLInputElement | null>(null);
  const branches = useAppStore((state) => state.analysis?.branches ?? []);
  const currentLeaf = useAppStore((state) => state.analysis?.leafId ?? null);
  const against = useCompareStore((state) => state.against);
  const others = branches.filter((branch) => branch.thread !== "sub-agent");
  return (
    <div className="compare-sources">
      <button type="button" className="btn" data-testid="compare-file-button" onClick={() => inputRef.current?.click()} title="Pick the session to compare with (or drop it on this view)">
        Compare with file…
      </button>
      <input
        ref={inputRef}
        type="file"
        hidden
        accept=".jsonl,.json,.txt,application/json,text/plain"
        data-testid="compare-file-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void compareWithFile(file);
        }}
      />
      {others.length > 1 && (
        <label className="field" title="Compare the branch shown with another branch of this session">
          <span className="field-label">or branch</span>
          <select
            data-testid="compare-branch-select"
            value={against?.kind === "branch" ? against.leafId : ""}
            onChange={(event) => {
              if (event.target.value) void compareWithBranch(event.target.value);
            }}
          >
            <option value="">choose…</option>
            {others
              .filter((branch) => branch.leafId !== currentLeaf)
              .map((branch) => (
                <option key={branch.leafId} value={branch.leafId}>
                  {(branch.label ?? branch.leafId).slice(0, 60)} · {branch.turns} turns
                </option>
              ))}
          </select>
        </label>
      )}
    </div>
  );
}

function Totals() {
  const result = useCompareStore((state) => state.result);
  if (!result) return null;
  const { a, b } = result.comparison.totals;
  return (
    <table className="compare-totals" data-testid="compare-totals">
      <thead>
        <tr>
          <th />
          <th>A</th>
          <th>B</th>
        </tr>
      </thead>
      <tbody>
        {TOTAL_ROWS.map((row) => (
          <tr key={row.key} data-total={row.key}>
            <td className="muted">{row.label}</td>
            <td>{totalText(a[row.key])}</td>
            <td>{totalText(b[row.key])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Pairs() {
  const result = useCompareStore((state) => state.result);
  const selected = useCompareStore((state) => state.selected);
  if (!result) return null;
  const { pairs, firstDifference } = result.comparison;
  return (
    <div className="compare-pairs">
      <table>
        <thead>
          <tr>
            <th>A</th>
            <th>B</th>
            <th>user message</th>
            <th>requests</th>
          </tr>
        </thead>
        <tbody>
          {pairs.map((pair, index) => (
            <tr
              key={index}
              data-testid="compare-pair"
              data-a={pair.a ?? ""}
              data-b={pair.b ?? ""}
              data-differs={String(pair.differs)}
              data-first={index === firstDifference ? "true" : undefined}
              aria-selected={index === selected}
              className={`${index === selected ? "selected " : ""}${index === firstDifference ? "first-difference " : ""}${pair.differs ? "differs" : "same"}`}
              onClick={() => void selectComparePair(index)}
            >
              <td>{pair.a ?? "—"}</td>
              <td>{pair.b ?? "—"}</td>
              <td className="compare-user" title={pair.userText ?? ""}>
                {pair.userText ?? <span className="muted">(no user message)</span>}
                {pair.by === "position" && <span className="muted"> · by position</span>}
              </td>
              <td>
                {pair.a === null || pair.b === null ? (
                  <span className="muted">only in {pair.a === null ? "B" : "A"}</span>
                ) : pair.differs ? (
                  <code>{pair.path}</code>
                ) : (
                  <span className="ok-text">same</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PairDiff() {
  const pair = useCompareStore((state) => state.pair);
  const result = pair.result;
  if (pair.status === "error") return <div className="center-message error-text">Could not compare the pair: {pair.error}</div>;
  if (!result) return <div className="center-message muted">{pair.status === "loading" ? "Comparing…" : "Select an aligned pair."}</div>;
  const heading = `${result.a !== null ? `A turn ${result.a}` : "A: no turn"} vs ${result.b !== null ? `B turn ${result.b}` : "B: no turn"}`;
  const differs = result.path !== null;
  return (
    <div className="request-view diff-view">
      <div className={`diff-cause${differs ? " broke" : ""}`} data-testid="compare-pair-diff" data-a={result.a ?? ""} data-b={result.b ?? ""} data-path={result.path ?? ""}>
        <span className="strong">{heading}:</span>{" "}
        {differs ? (
          <span className="cause-text broke">
            first difference at <code>{result.path}</code>
          </span>
        ) : result.a !== null && result.b !== null ? (
          <span className="cause-text">no difference the cache keys on</span>
        ) : (
          <span className="muted">one side only</span>
        )}
      </div>
      <LazyDiffEditor previousJson={result.leftJson} currentJson={result.rightJson} boundaryOffset={result.boundaryOffset} boundaryLabel="The requests differ from here (in cache order)." />
    </div>
  );
}

export function CompareView() {
  const state = useCompareStore();
  const result = state.result;
  const first = result?.comparison.firstDifference ?? null;
  const firstPair = first !== null ? result!.comparison.pairs[first]! : null;
  return (
    <section
      className="compare-view"
      data-testid="compare-view"
      data-state={state.status}
      onDragEnter={stopFileDrag}
      onDragOver={stopFileDrag}
      onDrop={(event) => {
        if (!stopFileDrag(event)) return;
        const file = event.dataTransfer.files[0];
        if (file) void compareWithFile(file);
      }}
    >
      <div className="compare-head">
        <strong>Compare</strong>
        {result ? (
          <span className="compare-sides">
            <span title={result.a.formatLabel}>A: {result.a.label}</span>
            <span title={result.b.formatLabel}>B: {result.b.label}</span>
          </span>
        ) : (
          <span className="muted">{state.secondName ? `with ${state.secondName}` : "Pick or drop a second session, or choose another branch."}</span>
        )}
        <SourceControls />
        {firstPair && (
          <button type="button" className="btn" data-testid="compare-first-difference" onClick={jumpToFirstDifference} title="Select the first aligned pair whose requests differ for the cache">
            First difference: A {firstPair.a ?? "—"} / B {firstPair.b ?? "—"}
          </button>
        )}
        {result && first === null && <span className="ok-text" data-testid="compare-no-difference">no pair differs</span>}
        <button type="button" className="btn" data-testid="compare-close" onClick={closeCompareView}>
          Close
        </button>
      </div>
      {state.status === "loading" && <div className="center-message muted">Comparing…</div>}
      {state.status === "error" && (
        <div className="center-message error-text" data-testid="compare-error">
          {state.error}
        </div>
      )}
      {result && (
        <div className="compare-body">
          <div className="compare-side-panel">
            <Totals />
            <Pairs />
          </div>
          <div className="compare-diff">
            <PairDiff />
          </div>
        </div>
      )}
    </section>
  );
}

/** The top bar's entry point. */
export function CompareButton() {
  const hasSession = useAppStore((state) => state.analysis !== null);
  const open = useCompareStore((state) => state.open);
  if (!hasSession) return null;
  return (
    <button
      type="button"
      className={`btn${open ? " active" : ""}`}
      data-testid="compare-button"
      onClick={() => (open ? closeCompareView() : openCompareView())}
      title="Compare this session with another session, or with another of its branches"
    >
      Compare…
    </button>
  );
}
