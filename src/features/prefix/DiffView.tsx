// Diff tab: the selected turn's request against the previous turn's (Monaco diff), with the cause
// of a prefix break named above it — the primary cause, contributing causes, the break path, the
// shared bytes and tokens, the tokens paid again — or "extends the previous request"; and the
// provider's own cache verdict when the file records one, worded where it disagrees.
import { useAppStore } from "../../page/store";
import "./prefix.css";
import { formatInt } from "../../ui/format";
import { LazyDiffEditor } from "./LazyDiffEditor";
import { serverVerdictInWords } from "../../core/prefix/server-verdict";

export function DiffView() {
  const diff = useAppStore((state) => state.diff);
  const result = diff.result;
  if (diff.status === "error") {
    return <div className="center-message error-text">Could not compare turn {diff.turn}: {diff.error}</div>;
  }
  if (!result) {
    return <div className="center-message muted">{diff.status === "loading" ? `Comparing turn ${diff.turn}…` : "Select a turn."}</div>;
  }
  const row = result.row;
  // A break the rebuilt requests show, one the provider reported, or a miss nothing explains.
  const broke = row.cause !== null || row.serverBreak || row.unexplainedMiss;
  const causeText =
    row.cause !== null ? `cache break — ${result.causeText}` : row.serverBreak ? "cache break the provider reported" : row.unexplainedMiss ? "cache miss the rebuilt requests cannot explain" : result.causeText;
  const serverText = row.serverNote ?? (row.serverVerdict !== null ? `The server says: ${serverVerdictInWords(row.serverVerdict, row.serverMissedTokens)}.` : null);
  const tokensWord = row.tokensExact ? "tokens" : "tokens (estimate)";
  const boundaryLabel =
    row.cause !== null
      ? `Prefix break: ${result.causeText}. The provider's cache stops here; everything after it is paid again.`
      : "The previous request ends here: everything before is shared (cacheable), the rest is new.";
  return (
    <div className="request-view diff-view">
      <div className={`diff-cause${broke ? " broke" : ""}`} data-testid="diff-cause" data-cause={row.cause ?? "none"}>
        <div className="diff-cause-line">
          <span className="strong">
            Turn {result.turn}
            {result.previousTurn !== null ? ` vs turn ${result.previousTurn}` : ""}:
          </span>{" "}
          <span className={broke ? "cause-text broke" : "cause-text"}>{causeText}</span>
          {diff.status === "loading" && diff.turn !== result.turn && <span className="muted"> · comparing turn {diff.turn}…</span>}
        </div>
        {serverText !== null && (
          <div
            className={`diff-server-verdict${row.serverAgreement === "disagree" || row.unexplainedMiss ? " differs" : ""}`}
            data-testid="diff-server-verdict"
            data-agreement={row.serverAgreement}
            title="Recorded in the session file: the provider's own comparison of this request with the previous one (its cache diagnostics), beside what the rebuilt requests show."
          >
            {serverText}
          </div>
        )}
        {result.contributingText.length > 0 && (
          <div className="muted">contributing: {result.contributingText.join(", ")}</div>
        )}
        {result.previousTurn !== null && (
          <div className="diff-facts muted">
            {row.breakPath !== null && (
              <span>
                break at <code>{row.breakPath}</code>
              </span>
            )}
            <span>
              shares {formatInt(row.sharedBytes)} of {formatInt(row.bytes)} bytes
            </span>
            <span title={`Tokens of the rebuilt requests (${result.counterLabel}); the part not in the file is not counted.`}>
              shares {formatInt(row.sharedTokens)} of {formatInt(row.tokens)} {tokensWord}
            </span>
            {row.cause !== null && result.repaidTokens > 0 && (
              <span title="Tokens the previous request had cached that this one sent again past the break, billed at the full input price: never more than this request, nor than what the provider did not read from its cache.">
                {formatInt(result.repaidTokens)} tokens billed again
              </span>
            )}
            {row.unrecordedTokens !== null && (
              <span title={`The system prompt and tool definitions are not in the session file; their size is inferred from the recorded usage of turn ${row.unrecordedFromTurn}.`}>
                ≈ {formatInt(row.unrecordedTokens)} not in the file
              </span>
            )}
            {row.predictedCachedTokens !== null && (
              <span
                data-testid="diff-predicted-cached"
                title={`What the provider's prompt cache should have served, simulated from the shared prefix${row.unrecordedTokens !== null ? " (counting the part not in the file)" : ""}.`}
              >
                predicted from cache {formatInt(row.predictedCachedTokens)}
                {row.recordedCacheRead !== null ? ` · recorded ${formatInt(row.recordedCacheRead)}` : ""}
              </span>
            )}
          </div>
        )}
      </div>
      <LazyDiffEditor
        previousJson={result.previousJson}
        currentJson={result.currentJson}
        boundaryOffset={result.boundaryOffset}
        boundaryLabel={boundaryLabel}
      />
    </div>
  );
}
