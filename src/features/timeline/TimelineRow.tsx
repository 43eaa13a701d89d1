// One row of the timeline: a turn (number, time, model, message count, context size with a bar,
// badges) or a compaction event (distinct styling).
import { plural } from "../../ui/words";
import { memo } from "react";
import type { CompactionEvent, TurnSummary } from "../../core/model";
import type { PrefixRow } from "../prefix/protocol";
import { formatCompact, formatTime } from "../../ui/format";
import { formatPriced, type PricedUsage, type TurnCost } from "../../core/pricing/index";
import { billedTitle, rebuiltFigure, rebuiltTitle, turnTokenStory } from "../../ui/tokenStory";
import type { Verdict } from "../../app/captureVerify";
import { Badge, TurnBadges, turnBadges } from "./TurnBadges";

interface RowBaseProps {
  selected: boolean;
  index: number;
  onSelect(index: number): void;
  style: React.CSSProperties;
}

interface TurnRowProps extends RowBaseProps {
  summary: TurnSummary;
  maxTokens: number;
  /** The turn's prefix report, once computed. */
  prefix?: PrefixRow | undefined;
  /** The simulator's whole-session replay would fire automatic compaction after this turn. */
  simulatedCompaction?: boolean;
  /** The turn's recorded, predicted and break cost, once priced. */
  cost?: TurnCost | undefined;
  /** The turn against its captured request, when one is attached. */
  wire?: { verdict: Verdict; source: string } | undefined;
}

function costTitle(cost: TurnCost): string {
  const parts = (priced: PricedUsage) =>
    priced.parts.map((p) => `${p.kind} ${p.tokens} × ${p.perMillion === null ? "?" : `$${p.perMillion}`}/M`).join(", ");
  const lines = [
    `Recorded: ${formatPriced(cost.recorded)}${cost.recorded.parts.length ? ` (${parts(cost.recorded)})` : ""}${cost.recorded.missing.length ? ` — ${cost.recorded.missing.join(", ")}${cost.recorded.row === null && cost.recorded.missing[0]?.startsWith("no price") ? " in the price dataset (add its prices in the price table)" : ""}` : ""}`,
    `Predicted (cache simulation): ${formatPriced(cost.predicted)}`,
  ];
  const long = cost.recorded.longContext ?? cost.predicted.longContext;
  if (long) lines.push(`Long-context prices: the request's ${long.inputTokens} input tokens are above ${long.aboveInputTokens}`);
  if (cost.break) lines.push(`Prefix break: ${formatPriced(cost.break)} for ${cost.rebilledTokens} tokens billed again`);
  if (cost.recorded.row) lines.push(`Price row: ${cost.recorded.row}${MATCH_WORDS[cost.recorded.match ?? "exact"]}`);
  return lines.join("\n");
}

const MATCH_WORDS: Record<NonNullable<PricedUsage["match"]>, string> = {
  exact: "",
  model: " (matched by model id)",
  normalised: " (matched by normalised model id)",
  dataset: " (found by the price dataset's model matching)",
};

/**
 * The turn's cost in the row: no usage recorded and no price for the model are told apart (the
 * row's first line names the model; the title says the dataset lacks it).
 */
function costLabel(cost: TurnCost, summary: TurnSummary): string {
  // Short: the row is narrow; its tooltip says the file records no usage for this call.
  if (!summary.usage) return "no usage";
  if (cost.recorded.status === "not priced") return "not priced";
  return formatPriced(cost.recorded).replace(" (partly priced)", "");
}

/** The cost as the row shows it: the label, long context, and what its prefix break cost. */
function costText(cost: TurnCost, summary: TurnSummary): string {
  return `${costLabel(cost, summary)}${cost.recorded.longContext ? " (long context)" : ""}${cost.break?.dollars ? ` · break ${formatPriced(cost.break)}` : ""}`;
}


export const TurnRow = memo(function TurnRow({ summary, maxTokens, selected, index, onSelect, style, prefix, simulatedCompaction, cost, wire }: TurnRowProps) {
  const failed = summary.stopReason === "error" || summary.stopReason === "aborted";
  const story = turnTokenStory(summary, prefix ?? null);
  const width = maxTokens > 0 ? Math.max(1.5, (story.rebuilt / maxTokens) * 100) : 0;
  const notInFileWidth = maxTokens > 0 && story.notInFile !== null ? Math.min(100 - width, (story.notInFile / maxTokens) * 100) : 0;
  const recordedAt = story.billed !== null && maxTokens > 0 ? Math.min(100, (story.billed / maxTokens) * 100) : null;
  return (
    <div
      role="option"
      aria-selected={selected}
      data-testid="timeline-row"
      data-kind="turn"
      data-turn={summary.turn}
      className={`timeline-row turn${selected ? " selected" : ""}${failed ? " failed" : ""}`}
      style={style}
      onClick={() => onSelect(index)}
    >
      <div className="row-line">
        <span className="turn-number">#{summary.turn}</span>
        <span className="turn-time">{formatTime(summary.timestamp)}</span>
        <span className="turn-model" title={summary.model ? `${summary.model.provider}/${summary.model.modelId}` : "The session file does not name the model of this call."}>
          {summary.model?.modelId ?? <span className="muted">model not recorded</span>}
        </span>
        <TurnBadges badges={turnBadges(summary, wire, simulatedCompaction, prefix, failed)} />
      </div>
      <div className="row-line secondary">
        <span className="message-count" title={`${plural(summary.messageCount, "message")} in the context`}>
          {summary.messageCount} {summary.messageCount === 1 ? "message" : "messages"}
        </span>
        {story.billed !== null ? (
          <span data-testid="row-billed" title={billedTitle(story)}>
            {formatCompact(story.billed)} billed
          </span>
        ) : (
          <span data-testid="row-rebuilt" title={rebuiltTitle(story)}>
            {rebuiltFigure(story, true)} rebuilt
          </span>
        )}
        {cost && (
          <span
            className={`turn-cost cost-${cost.recorded.status.replace(" ", "-")}`}
            data-testid="turn-cost"
            data-status={cost.recorded.status}
            data-dollars={cost.recorded.dollars ?? ""}
            data-long-context={cost.recorded.longContext ? "true" : undefined}
            // The row is narrow: the title starts with the whole label, which may be cut.
            title={`${costText(cost, summary)}\n${summary.usage ? costTitle(cost) : "The session file records no token usage for this call: there is nothing to price."}`}
          >
            {costText(cost, summary)}
          </span>
        )}
        <span className="size-bar" aria-hidden="true">
          {notInFileWidth > 0 && <span className="size-not-in-file" style={{ width: `${notInFileWidth}%` }} />}
          <span className="size-fill" style={{ width: `${width}%`, left: `${notInFileWidth}%` }} />
          {recordedAt !== null && <span className="size-recorded" style={{ left: `${recordedAt}%` }} />}
        </span>
      </div>
    </div>
  );
});

interface CompactionRowProps extends RowBaseProps {
  event: CompactionEvent;
}

export const CompactionRow = memo(function CompactionRow({ event, selected, index, onSelect, style }: CompactionRowProps) {
  return (
    <div
      role="option"
      aria-selected={selected}
      data-testid="timeline-row"
      data-kind="compaction"
      data-before-turn={event.beforeTurn ?? undefined}
      data-entry-id={event.entryId}
      data-tokens-before={event.tokensBefore ?? undefined}
      data-failed={event.failed !== undefined ? "true" : undefined}
      className={`timeline-row compaction${event.failed !== undefined ? " failed" : ""}${selected ? " selected" : ""}`}
      style={style}
      onClick={() => onSelect(index)}
    >
      <div className="row-line">
        <span className="compaction-icon">⟲</span>
        <span className="compaction-title" title={event.failed !== undefined ? `The compaction attempt failed: ${event.failed}` : "Summariser request: auxiliary, does not advance the turn counter"}>
          {event.failed !== undefined ? "Compaction failed" : "Compaction"}
        </span>
        <span className="turn-time">{formatTime(event.timestamp)}</span>
        <span className="badges">
          {event.beforeTurn !== null && <Badge kind="aux" title={`The next request is turn ${event.beforeTurn}`} children={`→ #${event.beforeTurn}`} />}
        </span>
      </div>
      <div className="row-line secondary">
        {event.failed !== undefined ? (
          <span className="compaction-error" title={event.failed}>{event.failed}</span>
        ) : (
          <>
            {event.tokensBefore !== null && <span title="Context tokens before the compaction, as the agent recorded them">{formatCompact(event.tokensBefore)} tokens before</span>}
            <span title="Characters of the stored summary">summary {formatCompact(event.summaryChars)} chars</span>
          </>
        )}
      </div>
    </div>
  );
});
