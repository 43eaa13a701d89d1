// Right panel: facts about the selected turn (model and where its facts came from, with the
// catalogue editor, API, thinking level, recorded usage, stop reason, what is not recorded, what
// was inserted or dropped, the [INF] serializer rules of the shape, the reply-language notes and the
// message selected in the Messages tab) or the selected compaction event.
import type { CompactionEvent, TurnSummary } from "../../core/model";
import { outcomeTokens } from "../compaction/index";
import { selectedItem, turnSummary } from "../../page/selectors";
import { useAppStore } from "../../page/store";
import type { MessageRow, TurnRequestResult } from "../request/protocol";
import { AuxiliaryDetails } from "../auxiliary/index";
import { API_LABELS, formatDateTime, formatInt } from "../../ui/format";
import { InferredBadge, InferredRulesBadge } from "../../ui/InferredBadge";
import { inWords, provenanceWords } from "../../ui/words";
import { ModelFacts } from "../request/index";
import { CaptureFacts } from "../captures/index";
import { RuleText } from "../../ui/RuleText";
import { serverVerdictInWords } from "../../core/prefix/server-verdict";
import {
  billedTitle,
  notInFileSentence,
  notInFileTitle,
  predictedCachedTitle,
  prefixRowOf,
  rebuiltFigure,
  rebuiltTitle,
  TOKEN_LABELS,
  turnTokenStory,
} from "../../ui/tokenStory";

function Row({ label, children, title }: { label: string; children: React.ReactNode; title?: string }) {
  return (
    <div className="kv" title={title}>
      <span className="k">{label}</span>
      <span className="v">{children}</span>
    </div>
  );
}

function TurnDetails({ summary, result }: { summary: TurnSummary; result: TurnRequestResult | null }) {
  const built = result?.turn === summary.turn ? result.built : null;
  const inserted = new Map<string, number>();
  for (const row of result?.turn === summary.turn ? result.rows : []) {
    if (row.rule !== "entry") inserted.set(row.rule, (inserted.get(row.rule) ?? 0) + 1);
  }
  const usage = summary.usage;
  const rows = result?.turn === summary.turn ? result.rows : [];
  const notes = rows.filter((row) => row.noteExplanation);
  const selectedIndex = useAppStore((state) => (state.selectedMessage?.turn === summary.turn ? state.selectedMessage.index : null));
  const selectedRow = selectedIndex === null ? null : (rows[selectedIndex] ?? null);
  const allEvents = useAppStore((state) => state.analysis?.events);
  const events = (allEvents ?? []).filter((event) => event.afterTurn === summary.turn);
  return (
    <>
      {selectedRow && <MessageDetails row={selectedRow} />}
      <div className="section-title">Turn {summary.turn}</div>
      <Row label="time">{formatDateTime(summary.timestamp)}</Row>
      <Row label="answered by">{summary.entryId}</Row>
      <ServerVerdict summary={summary} />
      {events.length > 0 && (
        <>
          <div className="section-title">Session events after this turn</div>
          <ul className="lint-list" data-testid="session-events">
            {events.map((event) => (
              <li key={event.entryId} title={`line ${event.line} · ${event.kind}`}>
                {event.label}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="section-title">Model</div>
      <Row label="model">{summary.model ? `${summary.model.provider}/${summary.model.modelId}` : "unknown"}</Row>
      {built && <ModelFacts model={built.model} thinkingLevel={summary.thinkingLevel} windowFromSession={built.windowFromSession ?? null} />}
      <Row label="api">
        {built ? API_LABELS[built.api] ?? built.api : summary.api ? API_LABELS[summary.api] ?? summary.api : "unknown"}
        {built && summary.api && built.api !== summary.api ? " (override)" : ""}
      </Row>
      <Row label="thinking">{summary.thinkingLevel}</Row>
      <CaptureFacts />
      <div className="section-title">Context</div>
      <Row label="messages">{summary.messageCount}</Row>
      <TurnTokens summary={summary} />
      <Row label="stop reason">{summary.stopReason ?? "—"}</Row>
      {result?.turn === summary.turn && result.groundTruth && (
        <>
          <div className="section-title">Request dumps (ground truth)</div>
          <ul className="plain-list">
            {result.groundTruth.map((check) => (
              <li key={check.line} data-testid="dump-check" className={check.equal ? "dump-equal" : "dump-differs"}>
                {check.line}
              </li>
            ))}
          </ul>
        </>
      )}
      {built && (
        <>
          <div className="section-title">Not recorded</div>
          {built.notRecorded.length === 0 ? (
            <div className="muted">Everything in this request is known.</div>
          ) : (
            <>
              <ul className="plain-list">
                {built.notRecorded.map((what) => (
                  <li key={what} className="not-recorded-item">
                    <RuleText text={what} />
                  </li>
                ))}
              </ul>
              <div className="explain">
                The session file does not store these parts; the request shows a marker instead of inventing them. Attach a
                captured request of the same agent (top bar) to fill them in. The rebuilt request's token count leaves them out; "not in the file" above sizes them from the recorded usage.
              </div>
            </>
          )}
          {/* The count alone in the value, so a long rule name leaves it room (no word broken in two). */}
          <div className="section-title">Inserted by the pipeline</div>
          {inserted.size === 0 ? (
            <div className="muted">No message inserted by the pipeline.</div>
          ) : (
            [...inserted].map(([rule, count]) => (
              <Row key={rule} label={provenanceWords(rule)} title={`${rule}: ${count} inserted`}>
                {count}
              </Row>
            ))
          )}
          {notes.length > 0 && (
            <>
              <div className="section-title">Reply-language notes ({notes.length})</div>
              {notes.map((row) => (
                <NoteExplanation key={row.index} row={row} />
              ))}
            </>
          )}
          {built.inferences.length > 0 && (
            <>
              <div className="section-title">Inferred serializer rules</div>
              <div className="inferred-list" data-testid="serializer-inferences">
                {built.inferences.length === 1 ? (
                  <InferredBadge rule={built.inferences[0]!} />
                ) : (
                  <InferredRulesBadge ruleIds={built.inferences.map((rule) => rule.ruleId)} what={built.inferences.map((rule) => inWords(rule.what)).join("; ")} />
                )}
              </div>
            </>
          )}
          <Row label="dropped">{built.dropped.length}</Row>
          {built.dropped.map((dropped, index) => (
            <div key={index} className="explain">
              <RuleText text={`${dropped.role} message${dropped.entryId ? ` from entry ${dropped.entryId}` : ""}: ${dropped.reason}${dropped.ruleId ? ` (${dropped.ruleId})` : ""}`} />
            </div>
          ))}
        </>
      )}
    </>
  );
}

/**
 * What the provider's server said about this call's prompt cache, when the file records it, and
 * how that stands beside the break the rebuilt requests show (or a miss nothing explains).
 */
function ServerVerdict({ summary }: { summary: TurnSummary }) {
  const prefix = useAppStore((state) => prefixRowOf(state.prefix.rows, summary.turn));
  const verdict = summary.serverVerdict ?? null;
  const note = prefix?.serverNote ?? null;
  if (verdict === null && note === null) return null;
  const agreement = prefix ? AGREEMENT_WORDS[prefix.serverAgreement] : null;
  return (
    <>
      <div className="section-title">Provider's cache verdict</div>
      <div data-testid="server-verdict" data-verdict={verdict?.type ?? "none-recorded"} data-agreement={prefix?.serverAgreement ?? ""}>
        <Row label="the server says" title="Recorded in the session file: the provider's own comparison of this request with the previous one (its cache diagnostics).">
          {verdict ? serverVerdictInWords(verdict.type, verdict.missedTokens) : <span className="muted">nothing recorded</span>}
        </Row>
        {agreement && <Row label="beside the rebuild">{agreement}</Row>}
        {note && (
          <div className="explain" data-testid="server-verdict-note">
            {note}
          </div>
        )}
      </div>
    </>
  );
}

const AGREEMENT_WORDS: Record<NonNullable<ReturnType<typeof prefixRowOf>>["serverAgreement"], string> = {
  agree: "agrees with the rebuilt requests",
  disagree: "disagrees with the rebuilt requests",
  inconclusive: "says nothing to compare",
  "no-verdict": "no verdict recorded",
};

/** The turn's token story: billed (recorded), rebuilt (counted), not in the file (inferred), predicted from cache. */
function TurnTokens({ summary }: { summary: TurnSummary }) {
  const prefix = useAppStore((state) => prefixRowOf(state.prefix.rows, summary.turn));
  const startsMidSession = useAppStore((state) => state.analysis?.startsMidSession === true);
  const story = turnTokenStory(summary, prefix);
  return (
    <>
      <div className="section-title">Tokens</div>
      <div data-testid="turn-tokens">
        {story.billed === null ? (
          <Row label={TOKEN_LABELS.billed} title={billedTitle(story)}>
            <span className="muted">not recorded</span>
          </Row>
        ) : (
          <>
            <Row label={TOKEN_LABELS.billed} title={billedTitle(story)}>
              <span data-testid="tokens-billed">{formatInt(story.billed)}</span>
            </Row>
            <Row label="· read from cache" title="Recorded: input tokens the provider served from its prompt cache.">
              {formatInt(story.cacheRead ?? 0)}
            </Row>
            <Row label="· written to cache" title="Recorded: input tokens the provider wrote to its prompt cache.">
              {formatInt(story.cacheWrite ?? 0)}
            </Row>
            <Row label="· not cached" title="Recorded: input tokens billed at the plain input price.">
              {formatInt(story.uncached ?? 0)}
            </Row>
            <Row label={TOKEN_LABELS.output} title="Recorded: tokens the model wrote in its reply (reasoning included).">
              {formatInt(story.output ?? 0)}
            </Row>
          </>
        )}
        <Row label={TOKEN_LABELS.rebuilt} title={rebuiltTitle(story)}>
          <span data-testid="tokens-rebuilt">{rebuiltFigure(story)}</span> <span className="muted">{story.rebuiltExact ? "exact" : "estimate"}</span>
        </Row>
        {story.notInFile !== null && (
          <Row label={TOKEN_LABELS.notInFile} title={notInFileTitle(story)}>
            <span data-testid="tokens-not-in-file">≈ {formatInt(story.notInFile)}</span> <span className="muted">inferred</span>
          </Row>
        )}
        {story.predictedCached !== null && (
          <Row label={TOKEN_LABELS.predictedCached} title={predictedCachedTitle(story)}>
            {formatInt(story.predictedCached)}
            {story.cacheRead !== null && <span className="muted"> (recorded {formatInt(story.cacheRead)})</span>}
          </Row>
        )}
        {story.notInFile !== null && <div className="explain" data-testid="tokens-not-in-file-explain">{notInFileSentence(story.notInFile, startsMidSession)} (turn {story.notInFileFromTurn}).</div>}
      </div>
    </>
  );
}

/** A note's explanation as plain text (language, source message, characters built up, [INF] rules). */
function NoteExplanation({ row }: { row: MessageRow }) {
  const rules = row.noteRules ?? [];
  return (
    <div className="note-explanation" data-testid="note-explanation">
      <div className="muted">
        message #{row.index} · <span title={row.rule}>{provenanceWords(row.rule)}</span>
        {row.entryId ? ` · entry ${row.entryId}` : ""}
      </div>
      <RuleText text={row.noteExplanation ?? ""} />
      {rules.length > 0 && (
        <div className="inferred-list">
          {rules.map((rule) => (
            <InferredBadge key={rule.ruleId} rule={rule} />
          ))}
        </div>
      )}
    </div>
  );
}

/** The message selected in the Messages tab. */
function MessageDetails({ row }: { row: MessageRow }) {
  return (
    <div data-testid="message-details">
      <div className="section-title">Message #{row.index}</div>
      <Row label="role">{row.role}</Row>
      <Row label="kind" title={row.rule}>
        {provenanceWords(row.rule)}
      </Row>
      <Row label="from entry">{row.entryId ?? "made by the pipeline"}</Row>
      <Row label="size">
        {formatInt(row.chars)} chars · ~{formatInt(row.tokens)} tokens
      </Row>
      {row.noteExplanation ? (
        <NoteExplanation row={row} />
      ) : (
        row.explanation && (
          <div className="explain">
            <RuleText text={`${row.explanation}${row.ruleId ? ` (${row.ruleId})` : ""}`} />
          </div>
        )
      )}
      {row.inferredRule && (
        <div className="inferred-list">
          <InferredBadge rule={row.inferredRule} />
        </div>
      )}
    </div>
  );
}

function CompactionDetails({ event }: { event: CompactionEvent }) {
  const compaction = useAppStore((state) => state.compaction);
  const result = compaction.entryId === event.entryId ? compaction.result : null;
  const outcome = result?.outcome ?? null;
  return (
    <>
      <div className="section-title">{event.failed !== undefined ? "Compaction (failed)" : "Compaction"}</div>
      {event.failed !== undefined && <Row label="failed">{event.failed}</Row>}
      <Row label="entry">{event.entryId}</Row>
      <Row label="time">{formatDateTime(event.timestamp)}</Row>
      {outcome?.triggerShort && <Row label="trigger">{outcome.triggerShort}</Row>}
      <Row label="tokens recorded">{event.tokensBefore === null ? "not recorded" : `${formatInt(event.tokensBefore)} before`}</Row>
      {outcome && <Row label="messages' tokens">{outcomeTokens(outcome)}</Row>}
      {outcome && outcome.afterTurn !== null && (
        <Row label="messages">
          {outcome.summarised.length} summarised · {outcome.kept.length} kept · {outcome.added.length} added
        </Row>
      )}
      {event.firstKeptEntryId !== null && <Row label="first kept">{event.firstKeptEntryId}</Row>}
      <Row label="summary">{formatInt(event.summaryChars)} chars</Row>
      <Row label="next turn">{event.beforeTurn === null ? "none (end of branch)" : `#${event.beforeTurn}`}</Row>
      <div className="explain" data-testid="compaction-details-request">
        {event.failed !== undefined ? (
          "A failed compaction attempt: the agent recorded that it started and why it failed; its summariser call was made but is not recorded, and the context was left as it was."
        ) : (
          <>
            A summariser call is an auxiliary request: it does not advance the turn counter. The agent does not record it;
            {result === null
              ? " rebuilding it…"
              : result.available
                ? " it is reconstructed from the compaction's record with the agent's own code (centre)."
                : ` it is not rebuilt here. ${result.reason ?? "This file does not say enough."}`}
          </>
        )}
      </div>
      {result?.available && (
        <>
          <div className="section-title">Reconstruction</div>
          {result.facts.map((fact) => (
            <Row key={fact.label} label={fact.label}>
              {fact.value}
            </Row>
          ))}
          {result.lints.length > 0 && (
            <>
              <div className="section-title">Findings ({result.lints.length})</div>
              <ul className="lint-list">
                {result.lints.map((lint, index) => (
                  <li key={index}>{lint}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {compaction.status === "error" && compaction.entryId === event.entryId && (
        <div className="explain error-text">Reconstruction failed: {compaction.error}</div>
      )}
    </>
  );
}

export function DetailsPanel() {
  const item = useAppStore(selectedItem);
  const summary = useAppStore((state) => (item?.kind === "turn" ? turnSummary(state, item.turn) : null));
  const result = useAppStore((state) => state.request.result);
  return (
    <aside className="details-panel">
      <div className="panel-title">
        <span>Details</span>
      </div>
      <div className="details-body">
        {!item && <div className="muted">Nothing selected.</div>}
        {item?.kind === "turn" && summary && <TurnDetails summary={summary} result={result} />}
        {item?.kind === "compaction" && <CompactionDetails event={item} />}
        {item?.kind === "auxiliary" && <AuxiliaryDetails event={item} />}
      </div>
    </aside>
  );
}
