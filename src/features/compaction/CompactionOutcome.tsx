// What a recorded compaction did, for every agent: the trigger in words, tokens before → after, and
// the messages it kept, summarised and added (src/features/compaction/compactionOutcomeModel.ts compares the request
// before the compaction with the next one). The lists in the centre view, the summary in Details.
// Session text is rendered as text only.
import type { CompactionOutcomeView, OutcomeMessage } from "./protocol";
import { formatInt } from "../../ui/format";
import "./compaction.css";

function tokensText(messages: readonly OutcomeMessage[]): string {
  const tokens = messages.reduce((total, m) => total + m.tokens, 0);
  return `${messages.length} message${messages.length === 1 ? "" : "s"} · ~${formatInt(tokens)} tokens`;
}

function MessageList({ title, messages, kind, explain, open }: { title: string; messages: OutcomeMessage[]; kind: string; explain: string; open: boolean }) {
  return (
    <details className="outcome-list" data-testid={`compaction-${kind}`} data-count={messages.length} open={open}>
      <summary title={explain}>
        {title} <span className="muted">· {tokensText(messages)}</span>
      </summary>
      {messages.length === 0 ? (
        <div className="muted">None.</div>
      ) : (
        <ol className="outcome-messages">
          {messages.map((m) => (
            <li key={m.index} data-testid="compaction-outcome-message">
              <span className="muted">#{m.index}</span> <span className="strong">{m.role}</span> <span className="muted">~{formatInt(m.tokens)}</span> <span className="outcome-preview">{m.preview}</span>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

/** Tokens before → after, as one line. */
export function outcomeTokens(outcome: CompactionOutcomeView): string {
  if (outcome.tokensBefore === null) return "not known";
  if (outcome.tokensAfter === null) return `~${formatInt(outcome.tokensBefore)} before (no request after it in the file)`;
  return `~${formatInt(outcome.tokensBefore)} → ~${formatInt(outcome.tokensAfter)}`;
}

/** The centre view's section: trigger, tokens, and the three lists. */
export function CompactionOutcomeLists({ outcome }: { outcome: CompactionOutcomeView }) {
  const beforeLabel = outcome.beforeTurn === null ? "" : `turn #${outcome.beforeTurn}'s request`;
  const afterLabel = outcome.afterTurn === null ? "" : `turn #${outcome.afterTurn}'s request`;
  return (
    <div className="compaction-outcome" data-testid="compaction-outcome">
      <div className="strong">What the compaction did</div>
      {outcome.trigger && (
        <div data-testid="compaction-trigger">
          <span className="muted">Trigger: </span>
          {outcome.trigger}
        </div>
      )}
      {outcome.recordedBefore !== null && (
        <div data-testid="compaction-before" title="As the agent recorded it: the figure its trigger compared with its threshold. The timeline row and Details show the same.">
          <span className="muted">Tokens before: </span>
          {formatInt(outcome.recordedBefore)}
        </div>
      )}
      <div data-testid="compaction-tokens" title="chars/4 estimates of the messages of the request before the compaction and of the next request">
        <span className="muted">Messages' tokens: </span>
        {outcomeTokens(outcome)}
        {beforeLabel && afterLabel && <span className="muted"> ({beforeLabel} → {afterLabel})</span>}
      </div>
      {outcome.note && <div className="muted">{outcome.note}</div>}
      {outcome.afterTurn !== null && outcome.beforeTurn !== null && (
        <>
          <MessageList title="Summarised" kind="summarised" messages={outcome.summarised} open explain={`In ${beforeLabel}, no longer sent in ${afterLabel}: replaced by the summary (or dropped)`} />
          <MessageList title="Kept" kind="kept" messages={outcome.kept} open={outcome.kept.length <= 20} explain={`In ${beforeLabel} and still sent in ${afterLabel}`} />
          <MessageList title="Added" kind="added" messages={outcome.added} open={outcome.added.length <= 5} explain={`New in ${afterLabel}: the summary, and what came after the compaction (the next prompt)`} />
        </>
      )}
    </div>
  );
}
