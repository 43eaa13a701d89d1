// The session at a glance, above the centre tabs: what it cost (its sub-agents included), how much
// of the input the provider read from its prompt cache, how many requests broke the cached prefix,
// its compactions, turns and how long it ran, and the record types of the file this version does not
// read (else the agent version it names). Every figure says in its tooltip where it comes from.
// While a sub-agent thread is shown, the figures are that thread's. At its end: whether the
// session is kept in this browser for the next visit, and "Forget this session".
import { useMemo } from "react";
import { formatPriced } from "../../core/pricing/index";
import type { TurnSummary } from "../../core/model";
import { useSessionCost, useWholeSessionCost } from "../prices/index";
import { useAppStore } from "../../page/store";
import { isBreakRow } from "../../page/timelineFilter";
import { formatInt } from "../../ui/format";
import { KeptSessionControl, type RecordsSummary } from "../open/index";
import "../../styles/views.css";

/** Recorded cache reads over all recorded input (uncached + cache read + cache write), over the turns that record usage. */
function cacheHit(turns: readonly TurnSummary[]): { ratio: number | null; read: number; input: number; turnsWithUsage: number } {
  let read = 0;
  let input = 0;
  let turnsWithUsage = 0;
  for (const turn of turns) {
    if (!turn.usage) continue;
    turnsWithUsage += 1;
    read += turn.usage.cacheRead;
    input += turn.usage.input + turn.usage.cacheRead + turn.usage.cacheWrite;
  }
  return { ratio: input > 0 ? read / input : null, read, input, turnsWithUsage };
}

/** "2 h 05 min", "14 min", "40 s". */
function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.round(hours / 24)} days`;
}

/** First to last timestamp of the timeline's turns and compactions; null without two timestamps. */
function duration(turns: readonly TurnSummary[], compactionTimes: readonly (string | null)[]): number | null {
  let first = Infinity;
  let last = -Infinity;
  for (const time of [...turns.map((turn) => turn.timestamp), ...compactionTimes]) {
    const at = time === null ? NaN : Date.parse(time);
    if (!Number.isFinite(at)) continue;
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  return last > first ? last - first : null;
}

function Figure({ label, value, title, testId, attention }: { label: string; value: string; title: string; testId: string; attention?: boolean }) {
  return (
    <span className={`session-overview-figure${attention ? " attention" : ""}`} title={title} data-testid={testId}>
      <span className="session-overview-value">{value}</span> <span className="muted">{label}</span>
    </span>
  );
}

/**
 * What the file holds that this version does not read, and an agent version newer than the newest
 * verified, in plain words (or, when neither, the agent version the file names); the tooltip lists
 * every type with its count.
 */
function RecordsNote({ records }: { records: RecordsSummary }) {
  const cautions = [records.unknown, records.newer].filter((part): part is string => part !== null);
  if (cautions.length === 0 && records.versions === null) return null;
  // The newer-version sentence names the version itself; otherwise the version follows in brackets.
  const text = cautions.length === 0 ? records.versions : `${cautions.join("; ")}${records.versions && !records.newer ? ` (${records.versions})` : ""}`;
  return (
    <span
      className={`session-overview-records${cautions.length > 0 ? " attention" : " muted"}`}
      title={[cautions.length > 0 ? records.versions : null, "Record types in the file:", ...records.details].filter(Boolean).join("\n")}
      data-testid="overview-records"
    >
      {text}
    </span>
  );
}

export function SessionOverview() {
  const analysis = useAppStore((state) => state.analysis);
  const prefixRows = useAppStore((state) => state.prefix.rows);
  const threads = useAppStore((state) => state.session?.threads);
  const records = useAppStore((state) => state.session?.records);
  const shownThread = useAppStore((state) => state.options.thread);
  const cost = useSessionCost();
  const whole = useWholeSessionCost();
  const figures = useMemo(() => {
    if (!analysis) return null;
    const compactions = analysis.timeline.filter((item) => item.kind === "compaction");
    return {
      turns: analysis.turns.length,
      compactions: compactions.length,
      cache: cacheHit(analysis.turns),
      duration: duration(analysis.turns, compactions.map((item) => (item.kind === "compaction" ? item.timestamp : null))),
    };
  }, [analysis]);
  if (!analysis || !figures || !cost) return null;
  const subAgents = shownThread === null ? (threads ?? []) : [];
  // The whole session's cost (every thread's calls, the top bar's figure) while the main thread is
  // shown; a sub-agent's own while it is.
  const counted = shownThread === null && whole ? whole.threads.slice(1).filter((line) => line.turns > 0) : [];
  const total = shownThread === null && whole ? whole.total : cost.recorded;
  const breaks = prefixRows === null ? null : prefixRows.filter(isBreakRow).length;
  const threadLabel = shownThread === null ? null : (threads?.find((thread) => thread.id === shownThread)?.label ?? shownThread);
  const costTitle = [
    shownThread === null ? "What the session's recorded usage cost, priced with the price table." : "What this sub-agent's recorded usage cost.",
    `Main thread: ${formatPriced(shownThread === null && whole ? whole.threads[0]!.recorded : cost.recorded)}.`,
    ...counted.map((line) => `${line.label}: ${formatPriced(line.recorded)}.`),
    "Click the cost in the top bar to see and edit the prices.",
  ]
    .filter(Boolean)
    .join("\n");
  const { cache } = figures;
  const subAgentTurns = subAgents.reduce((sum, thread) => sum + thread.turns, 0);
  return (
    <div className="session-overview" data-testid="session-overview" aria-label="Session at a glance">
      {threadLabel !== null && (
        <span className="session-overview-scope" data-testid="session-overview-scope">
          Sub-agent {threadLabel}:
        </span>
      )}
      <Figure
        label={counted.length > 0 ? `cost with ${counted.length} sub-agent${counted.length === 1 ? "" : "s"}` : "cost"}
        value={
          // A file without any recorded usage has nothing to price: never "$0".
          shownThread === null && whole && whole.calls > 0 && whole.callsWithUsage === 0 ? "no usage recorded" : formatPriced(total).replace(" (partly priced)", "")
        }
        title={costTitle}
        testId="overview-cost"
      />
      <Figure
        label="read from cache"
        value={cache.ratio === null ? "—" : `${Math.round(cache.ratio * 100)} %`}
        title={
          cache.ratio === null
            ? "No turn records its input tokens, so the cache share is unknown."
            : `Recorded cache reads over all recorded input tokens (uncached, cache reads, cache writes): ${formatInt(cache.read)} of ${formatInt(cache.input)}, over the ${cache.turnsWithUsage} turns that record usage.`
        }
        testId="overview-cache"
      />
      <Figure
        label={breaks === 1 ? "cache break" : "cache breaks"}
        value={breaks === null ? "…" : formatInt(breaks)}
        title="Requests that stop repeating the previous request, so the prompt cache misses from that point on (estimated token counts), with the breaks the provider itself reported and the misses the recorded usage shows that nothing explains; the timeline filter lists them."
        testId="overview-breaks"
        attention={breaks !== null && breaks > 0}
      />
      <Figure label={figures.compactions === 1 ? "compaction" : "compactions"} value={formatInt(figures.compactions)} title="Compactions recorded in the file: the agent summarised the conversation to make room." testId="overview-compactions" />
      <Figure
        label={figures.turns === 1 ? "turn" : "turns"}
        value={formatInt(figures.turns)}
        title={`Provider calls on this branch${subAgentTurns > 0 ? `; the sub-agents made ${formatInt(subAgentTurns)} more` : ""}.`}
        testId="overview-turns"
      />
      <Figure
        label="elapsed"
        value={figures.duration === null ? "—" : formatDuration(figures.duration)}
        title="From the first to the last timestamp of the turns and compactions."
        testId="overview-duration"
      />
      {records && shownThread === null && <RecordsNote records={records} />}
      <KeptSessionControl />
    </div>
  );
}
