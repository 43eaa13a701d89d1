// Tokens tab: the selected turn's request by segment kind (tool definitions, system prompt, each
// kind of message, notes, summaries) with counts and bars, then every context message with its
// tokens; picking one shows its text cut at token boundaries (alternating colours, as text).
import { showTokenView } from "../state/actions";
import { useAppStore } from "../state/store";
import "../styles/prefix.css";
import { formatInt } from "./format";

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
  const tokens = useAppStore((state) => state.tokens);
  const result = tokens.result;
  if (tokens.status === "error") return <div className="center-message error-text">Could not count turn {tokens.turn}: {tokens.error}</div>;
  if (!result) {
    return <div className="center-message muted">{tokens.status === "loading" ? `Counting turn ${tokens.turn}…` : "Select a turn."}</div>;
  }
  const max = Math.max(1, ...result.rows.map((row) => row.tokens));
  return (
    <div className="tokens-view">
      <div className="view-toolbar">
        <span className="strong">Turn {result.turn}</span>
        <span className="muted">
          {formatInt(result.total)} tokens · {result.pass === "estimate" ? "estimate (chars/4), exact counts pending…" : result.counterLabel}
        </span>
        {result.notRecorded.length > 0 && <span className="muted">not recorded (0): {result.notRecorded.join(", ")}</span>}
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
        </tbody>
      </table>
      <div className="tokens-split">
        <ol className="token-messages">
          {result.messages.map((message) => (
            <li key={message.index}>
              <button
                type="button"
                className={`token-message${tokens.view.index === message.index ? " selected" : ""}`}
                onClick={() => showTokenView(result.turn, message.index)}
              >
                <span className="chip">{message.kind}</span> <span className="num">{formatInt(message.tokens)}</span>{" "}
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
