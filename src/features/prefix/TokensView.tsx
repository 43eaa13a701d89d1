// Tokens tab: the selected turn's request by segment kind (tool definitions, system prompt, each
// kind of message, notes, summaries) with counts and bars, then every context message with its
// tokens; picking one shows its text cut at token boundaries (alternating colours, as text).
import { showTokenView } from "../../page/views";
import { useAppStore } from "../../page/store";
import "./prefix.css";
import { formatInt } from "../../ui/format";
import { selectIndex } from "../../page/selection";
import { useCompositionStore } from "./compositionState";
import { CompositionChart } from "./CompositionChart";
import { notInFileSentence, prefixRowOf } from "../../ui/tokenStory";

/** The session-wide chart above the turn's composition; a click selects that turn. */
function SessionComposition() {
  const rows = useCompositionStore((state) => state.rows);
  const error = useCompositionStore((state) => state.error);
  const provisional = useAppStore((state) => state.analysisProvisional);
  const timeline = useAppStore((state) => state.analysis?.timeline ?? null);
  const selectedTurn = useAppStore((state) => {
    const item = state.selectedIndex === null ? null : state.analysis?.timeline[state.selectedIndex];
    return item?.kind === "turn" ? item.turn : null;
  });
  if (error) return <div className="error-text pad">Could not measure the session: {error}</div>;
  if (!rows && provisional) return <div className="muted pad" data-testid="composition-after-read">What fills the context is measured once the whole file is read.</div>;
  if (!rows) return <div className="muted pad">Measuring what fills the context over the session…</div>;
  return (
    <CompositionChart
      rows={rows}
      selectedTurn={selectedTurn}
      onSelectTurn={(turn) => {
        const index = (timeline ?? []).findIndex((item) => item.kind === "turn" && item.turn === turn);
        if (index >= 0) selectIndex(index);
      }}
    />
  );
}

function TokenPieces() {
  const view = useAppStore((state) => state.tokens.view);
  if (view.status === "idle") return <div className="muted pad">Pick a message to see its tokens.</div>;
  if (view.status === "error") return <div className="error-text pad">{view.error}</div>;
  if (!view.result) return <div className="muted pad">Tokenizing message {view.index}…</div>;
  const result = view.result;
  return (
    <div className="token-view" data-testid="token-view">
      <div className="muted">
        message {result.index}: {formatInt(result.tokenCount)} tokens · {result.label}
        {result.truncated ? ` · first ${formatInt(result.pieces.length)} pieces shown` : ""}
      </div>
      <div className="token-pieces">
        {result.pieces.map((piece, i) => (
          <span key={i} className={i % 2 === 0 ? "token-piece even" : "token-piece odd"}>
            {piece}
          </span>
        ))}
      </div>
    </div>
  );
}

export function TokensView() {
  const startsMidSession = useAppStore((state) => state.analysis?.startsMidSession === true);
  const tokens = useAppStore((state) => state.tokens);
  const prefix = useAppStore((state) => (state.tokens.result ? prefixRowOf(state.prefix.rows, state.tokens.result.turn) : null));
  const result = tokens.result;
  if (tokens.status === "error") return <div className="center-message error-text">Could not count turn {tokens.turn}: {tokens.error}</div>;
  if (!result) {
    return (
      <div className="tokens-view">
        <SessionComposition />
        <div className="center-message muted">{tokens.status === "loading" ? `Counting turn ${tokens.turn}…` : "Select a turn."}</div>
      </div>
    );
  }
  const notInFile = prefix?.unrecordedTokens ?? null;
  const max = Math.max(1, notInFile ?? 0, ...result.rows.map((row) => row.tokens));
  // Largest first; between equal sizes, tool results first (they are what a user usually trims).
  const bySize = [...result.messages].sort((a, b) => b.tokens - a.tokens || Number(b.kind === "tool-result") - Number(a.kind === "tool-result") || a.index - b.index);
  const share = (tokens: number) => (result.total > 0 ? `${((tokens / result.total) * 100).toFixed(1)}%` : "–");
  return (
    <div className="tokens-view">
      <SessionComposition />
      <div className="view-toolbar">
        <span className="strong" data-testid="tokens-turn">Turn {result.turn}</span>
        {/* The worker may be busy (e.g. loading a tokenizer's tables): say the turn shown is not the one selected yet. */}
        {tokens.status === "loading" && tokens.turn !== result.turn && <span className="muted">counting turn {tokens.turn}…</span>}
        <span className="muted" title="The request rebuilt from the session file; what the file does not hold is not counted.">
          {formatInt(result.total)} tokens rebuilt · {result.pass === "estimate" ? "estimate (chars/4), exact counts pending…" : result.counterLabel}
        </span>
        {notInFile !== null ? (
          <span className="muted" data-testid="tokens-not-in-file-sentence" title={`Inferred from the recorded usage of turn ${prefix?.unrecordedFromTurn}: billed prompt minus rebuilt request.`}>
            {notInFileSentence(notInFile, startsMidSession)}
          </span>
        ) : (
          result.notRecorded.length > 0 && <span className="muted">not in the file (not counted): {result.notRecorded.join(", ")}</span>
        )}
      </div>
      <table className="tokens-table" data-testid="tokens-table">
        <thead>
          <tr>
            <th>segment</th>
            <th className="num">count</th>
            <th className="num">tokens</th>
            <th className="bar-cell">share</th>
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row) => (
            <tr key={row.kind} data-kind={row.kind}>
              <td>{row.label}</td>
              <td className="num">{formatInt(row.count)}</td>
              <td className="num">{formatInt(row.tokens)}</td>
              <td className="bar-cell">
                <span className="token-bar" style={{ width: `${(row.tokens / max) * 100}%` }} />
              </td>
            </tr>
          ))}
          {notInFile !== null && (
            <tr data-kind="not-in-file" className="not-in-file-row" title="Not in the session file: inferred from recorded usage, not counted.">
              <td>not in the file: system prompt and tools (inferred)</td>
              <td className="num">—</td>
              <td className="num">≈ {formatInt(notInFile)}</td>
              <td className="bar-cell">
                <span className="token-bar not-in-file" style={{ width: `${(notInFile / max) * 100}%` }} />
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <div className="tokens-split">
        <ol className="token-messages" data-testid="token-messages" data-pass={result.pass} aria-label="Messages by size, largest first">
          {bySize.map((message) => (
            <li key={message.index} data-kind={message.kind} data-tokens={message.tokens}>
              <button
                type="button"
                className={`token-message${tokens.view.index === message.index ? " selected" : ""}`}
                onClick={() => showTokenView(result.turn, message.index)}
              >
                <span className="chip">{message.kind}</span> <span className="num">{formatInt(message.tokens)}</span>{" "}
                <span className="num share" title="Share of the request's tokens">{share(message.tokens)}</span> <span className="muted">#{message.index}</span>{" "}
                <span className="muted">{message.preview}</span>
              </button>
            </li>
          ))}
        </ol>
        <TokenPieces />
      </div>
    </div>
  );
}
