// The badges of a timeline turn row: its verdict against a captured request, and what is special
// about the turn (after a compaction, a cache break, a model switch, a note, dropped messages, an
// error). Rows have a fixed height, so badges never wrap; where a row is too narrow for three or
// more (the timeline at 1024 px), CSS keeps the first and shows the rest as "+N", whose tooltip
// says each of them in full (app.css, `.badges.many`).
import type { TurnSummary } from "../../core/model";
import { causeInWords } from "../../core/prefix/cause-words";
import type { PrefixRow } from "../prefix/protocol";
import type { Verdict } from "../../app/captureVerify";

interface BadgeItem {
  kind: string;
  text: string;
  title: string;
  testId?: string;
}

const WIRE_MARKS: Record<Verdict, { text: string; title: string }> = {
  equal: { text: "wire =", title: "equal to the wire: the rebuilt request is the captured body" },
  declared: { text: "wire ≈", title: "equal to the wire but for fields the agent's file cannot hold (declared not derivable)" },
  differs: { text: "wire ≠", title: "differs from the wire: see Request › diff with capture" },
  unmatched: { text: "wire ?", title: "no turn carries this capture's conversation" },
  "not compared": { text: "wire –", title: "not compared" },
};

/** Title of the cache-break badge: the cause in words, what it shares and what it pays again, and the provider's verdict beside it. */
function breakTitle(prefix: PrefixRow): string {
  const server = prefix.serverNote !== null ? ` ${prefix.serverNote}` : "";
  if (prefix.cause === null || prefix.cause === "") return prefix.serverBreak ? `Cache break the provider reported.${server}` : `Cache miss.${server}`;
  const cause = causeInWords(prefix.cause, prefix.causeDetail);
  const also = prefix.contributing.length > 0 ? `; also ${prefix.contributing.map((c) => causeInWords(c)).join(", ")}` : "";
  return `Cache break: ${cause}${also}. Shares ${prefix.sharedTokens} of ${prefix.tokens} tokens with the previous request.${server}`;
}

/** The badge's word: a break (ours or the provider's), or a miss nothing explains. */
function breakWord(prefix: PrefixRow): string | null {
  if ((prefix.cause !== null && prefix.cause !== "") || prefix.serverBreak) return "cache break";
  return prefix.unexplainedMiss ? "cache miss" : null;
}

export function Badge({ kind, children, title, testId }: { kind: string; children: string; title: string; testId?: string }) {
  return (
    <span className={`badge badge-${kind}`} title={title} data-testid={testId}>
      {children}
    </span>
  );
}

/** The badges of one turn, in the order they are shown. */
export function turnBadges(
  summary: TurnSummary,
  wire: { verdict: Verdict; source: string } | undefined,
  simulatedCompaction: boolean | undefined,
  prefix: PrefixRow | undefined,
  failed: boolean,
): BadgeItem[] {
  const items: (BadgeItem | false | undefined)[] = [
    wire && { kind: `wire-${wire.verdict.replace(" ", "-")}`, testId: "timeline-wire-badge", title: `${WIRE_MARKS[wire.verdict].title} (${wire.source})`, text: WIRE_MARKS[wire.verdict].text },
    summary.afterCompaction && { kind: "compacted", title: "First request after a compaction", text: "compacted" },
    simulatedCompaction && { kind: "simulated", testId: "timeline-sim-badge", title: "Simulated: the policy's automatic compaction would fire after this turn (whole-session replay)", text: "sim ⟲" },
    prefix !== undefined && breakWord(prefix) !== null && { kind: "break", testId: "timeline-break-badge", title: breakTitle(prefix), text: breakWord(prefix)! },
    summary.modelSwitched && { kind: "switch", title: "The model changed before this turn", text: "model" },
    summary.hasNote && { kind: "note", testId: "timeline-note-badge", title: "This request carries a senpi reply-language note (a note message, or the compaction summary's carrier)", text: "note" },
    summary.hasDropped && { kind: "dropped", title: "The pipeline dropped messages from this request", text: "dropped" },
    failed && { kind: "error", title: `The response ended with stop reason "${summary.stopReason}"`, text: summary.stopReason === "aborted" ? "interrupted" : "error" },
  ];
  return items.filter((item): item is BadgeItem => typeof item === "object" && item !== null);
}

/** The row's badges, with the "+N" summary CSS shows instead of all but the first in a narrow row. */
export function TurnBadges({ badges }: { badges: readonly BadgeItem[] }) {
  const many = badges.length >= 3;
  const rest = badges.slice(1);
  return (
    <span className={`badges${many ? " many" : ""}`}>
      {badges.map((badge) => (
        <Badge key={badge.kind} kind={badge.kind} title={badge.title} testId={badge.testId} children={badge.text} />
      ))}
      {many && <Badge kind="more" testId="timeline-more-badge" title={rest.map((badge) => `${badge.text}: ${badge.title}`).join("\n")} children={`+${rest.length}`} />}
    </span>
  );
}
