// PD-2: why request N+1 stops extending request N. Conditions are checked in the spec's order; the
// first match is the primary cause and every other match is listed as contributing. Inputs are the
// two segmented requests, their diff, the provenance of their context messages, and facts only the
// caller knows (compaction between, branch switch, dropped failed turn, model change).
import { isCompactionSummaryRule, type ContextMessage } from "../model";
import { isBillingHeaderBlock } from "./segment-anthropic";
import { segmentValue } from "./segment-builder";
import { tokenTextOf } from "./canonical";
import { changedSettings } from "./settings";
import { isText, textString, textUnits, type Text } from "../text/text";
import type { CauseReport, PrefixCause, PrefixDiff, SegmentedRequest, TurnFacts } from "./types";

export interface CauseInput {
  previous: SegmentedRequest;
  next: SegmentedRequest;
  diff: PrefixDiff;
  previousMessages?: readonly ContextMessage[] | null;
  nextMessages?: readonly ContextMessage[] | null;
  facts?: TurnFacts | null;
}

/** PD-2 order of the causes. */
const CAUSE_ORDER: readonly PrefixCause[] = [
  "model-changed",
  "settings-changed",
  "tools-changed",
  "history-rewritten",
  "failed-turn-dropped",
  "branch-switch",
  "system-changed",
  "insertion",
  "note-removed",
  "timestamp-changed",
  "truncation",
  "mutation",
];

/** Provenance rules that are the session's own content or a rendering of it, not a synthesis. */
function isSynthesized(rule: string): boolean {
  return !(rule === "entry" || rule.startsWith("render:") || rule.startsWith("wrap:"));
}

/** Dates, times, ISO stamps and epoch numbers: what changes in "otherwise equal" text. */
const TIMESTAMP_LIKE = [
  /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g,
  /\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g,
  /\b\d{10}(?:\d{3})?\b/g,
  /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /g,
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}(?:,? \d{4})?\b/g,
  /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g,
];

function maskTimestamps(text: string): string {
  let masked = text;
  for (const pattern of TIMESTAMP_LIKE) masked = masked.replace(pattern, "\u0000");
  return masked;
}

/** The text parts of a context message: its content when a text, or its blocks' text and thinking. */
function messageTextParts(message: ContextMessage): Text[] {
  const content = (message.message as { content?: unknown }).content;
  if (isText(content)) return [content];
  if (!Array.isArray(content)) return [];
  const parts: Text[] = [];
  for (const block of content) {
    if (block && typeof block === "object") {
      const b = block as Record<string, unknown>;
      if (isText(b.text)) parts.push(b.text);
      else if (isText(b.thinking)) parts.push(b.thinking);
    }
  }
  return parts;
}

/** The visible text of a context message (for matching provenance to a segment). */
export function contextMessageText(message: ContextMessage): string {
  return messageTextParts(message).map(textString).join("");
}

/**
 * Whether a message with the same visible text as `message` is among `messages`. Asked for every
 * message of a context at every break, so it decides from what it has at hand: the same parts (a
 * message carried from one request to the next holds the very same texts), then the lengths; only
 * texts of equal length are read. `message`'s parts, length and text are taken once.
 */
function textOccursIn(message: ContextMessage, messages: readonly ContextMessage[] | null | undefined): boolean {
  if (!messages || messages.length === 0) return false;
  const parts = messageTextParts(message);
  let units = -1;
  let text: string | null = null;
  for (const other of messages) {
    if (other === message) return true;
    const otherParts = messageTextParts(other);
    if (otherParts.length === parts.length && otherParts.every((part, index) => part === parts[index])) return true;
    if (units < 0) units = textUnitsOf(parts);
    if (textUnitsOf(otherParts) !== units) continue;
    text ??= contextMessageText(message);
    if (contextMessageText(other) === text) return true;
  }
  return false;
}

function textUnitsOf(parts: readonly Text[]): number {
  let units = 0;
  for (const part of parts) units += textUnits(part);
  return units;
}

/** Synthesized messages of `messages` whose text does not occur in `other`. */
function synthesizedOnlyIn(
  messages: readonly ContextMessage[] | null | undefined,
  other: readonly ContextMessage[] | null | undefined,
): ContextMessage[] {
  if (!messages || !other) return [];
  return messages.filter((m) => isSynthesized(m.provenance.rule) && !textOccursIn(m, other));
}

function matchesSegmentText(message: ContextMessage, segmentText: string): boolean {
  const text = contextMessageText(message);
  if (text.length === 0 || segmentText.length === 0) return false;
  return segmentText.includes(text) || text.includes(segmentText);
}

/** Text of the segment at `index`; for a message header, the text of the whole message. */
function segmentText(request: SegmentedRequest, index: number): string {
  const segment = request.segments.at(index);
  if (!segment) return "";
  if (segment.view !== "header") return tokenTextOf(segmentValue(segment));
  const parts: string[] = [];
  for (let i = index + 1; i < request.segments.length; i++) {
    const part = request.segments.at(i)!;
    if (part.messageIndex !== segment.messageIndex || part.view === "header") break;
    parts.push(tokenTextOf(segmentValue(part)));
  }
  return parts.join("");
}

export function classifyBreak(input: CauseInput): CauseReport {
  const { previous, next, diff } = input;
  const facts = input.facts ?? {};
  const matched = new Set<PrefixCause>();
  const details: Partial<Record<PrefixCause, string>> = {};
  const settingsChanged = changedSettings(previous.settings, next.settings);

  if (facts.modelChanged || (previous.model !== null && next.model !== null && previous.model !== next.model)) matched.add("model-changed");
  if (settingsChanged.length > 0) matched.add("settings-changed");

  const hasBreak = diff.breakSegmentIndex !== null;
  if (hasBreak) {
    const index = diff.breakSegmentIndex!;
    const prevSegment = previous.segments.at(index) ?? null;
    const nextSegment = next.segments.at(index) ?? null;
    const prevText = segmentText(previous, index);
    const nextText = segmentText(next, index);

    if (diff.breakLevel === "tools") matched.add("tools-changed");

    const newSummaries = (input.nextMessages ?? []).filter(
      (m) => isCompactionSummaryRule(m.provenance.rule) && !textOccursIn(m, input.previousMessages),
    );
    if (facts.compactionBetween || (input.previousMessages && newSummaries.length > 0)) matched.add("history-rewritten");
    // senpi SP-C2: a failed turn that proves an image was rejected rewrites earlier messages (the
    // image becomes a placeholder); their provenance says so even when the caller passes no facts.
    // Only a message the previous request held in another form counts.
    const replaced = (input.nextMessages ?? []).filter((m) => m.provenance.ruleId === "SP-C2" && m.provenance.entryId !== null);
    const previousByEntry = new Map<string, string>();
    if (replaced.length > 0) {
      for (const m of input.previousMessages ?? []) if (m.provenance.entryId) previousByEntry.set(m.provenance.entryId, contextMessageText(m));
    }
    const newImageReplacements = replaced.some((m) => {
      const before = previousByEntry.get(m.provenance.entryId!);
      return before !== undefined && before !== contextMessageText(m);
    });
    if (facts.droppedFailedTurn || (input.previousMessages && newImageReplacements)) matched.add("failed-turn-dropped");
    const newBranchSummary = (input.nextMessages ?? []).some(
      (m) => m.provenance.rule === "wrap:branch-summary" && !textOccursIn(m, input.previousMessages),
    );
    if (facts.branchSwitched || (input.previousMessages && newBranchSummary)) matched.add("branch-switch");

    if (diff.breakLevel === "system") {
      matched.add("system-changed");
      if (nextSegment && prevSegment && isBillingHeaderBlock(segmentValue(nextSegment)) && isBillingHeaderBlock(segmentValue(prevSegment))) {
        details["system-changed"] = "billing header";
      } else if (prevText !== nextText && maskTimestamps(prevText) === maskTimestamps(nextText)) details["system-changed"] = "date line";
    }

    if (diff.breakLevel === "messages") {
      const inserted = synthesizedOnlyIn(input.nextMessages, input.previousMessages);
      if (inserted.some((m) => matchesSegmentText(m, nextText))) matched.add("insertion");
      const removed = synthesizedOnlyIn(input.previousMessages, input.nextMessages);
      if (removed.some((m) => matchesSegmentText(m, prevText))) matched.add("note-removed");
      if (prevText !== nextText && maskTimestamps(prevText) === maskTimestamps(nextText)) matched.add("timestamp-changed");
      const shorterText = nextText.length < prevText.length && prevText.startsWith(nextText);
      const blocksRemoved =
        prevSegment !== null &&
        nextSegment !== null &&
        prevSegment.view !== "header" &&
        nextSegment.view === "header" &&
        (nextSegment.messageIndex ?? 0) > (prevSegment.messageIndex ?? 0);
      if (diff.nextIsPrefixOfPrevious || shorterText || blocksRemoved) matched.add("truncation");
      if (matched.size === 0) matched.add("mutation");
    } else if (diff.nextIsPrefixOfPrevious) matched.add("truncation");
  }

  const ordered = CAUSE_ORDER.filter((cause) => matched.has(cause));
  const cause = ordered[0] ?? null;
  if (matched.has("history-rewritten")) details["history-rewritten"] = facts.compactionBetween ? "compaction" : "compaction (from provenance)";
  if (matched.has("settings-changed")) details["settings-changed"] = settingsChanged.join(", ");
  return {
    cause,
    detail: cause === null ? null : (details[cause] ?? null),
    details,
    contributing: ordered.slice(1),
    settingsChanged,
    diagnosticsName: diagnosticsNameOf(cause, diff),
  };
}

/** CA-7: the name Anthropic's cache diagnostics gives the same situation. */
function diagnosticsNameOf(cause: PrefixCause | null, diff: PrefixDiff): CauseReport["diagnosticsName"] {
  if (cause === null) return null;
  if (cause === "model-changed") return "model_changed";
  if (diff.breakLevel === "tools") return "tools_changed";
  if (diff.breakLevel === "system") return "system_changed";
  if (diff.breakLevel === "messages" || diff.breakLevel === "schema") return "messages_changed";
  return null;
}
