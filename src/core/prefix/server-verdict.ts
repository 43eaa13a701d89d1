// The provider's own cache verdict beside ours. A file may record what the server said about a
// call's prompt cache (Claude Code 2.1.143 and later: Anthropic's cache diagnostics on every
// assistant line); this module reads it against the break the rebuilt requests show, says whether
// the two agree, and, where they do not, what the file cannot show. Where no verdict is recorded,
// the recorded usage can still tell a miss: most of what the previous call held written to the
// cache again instead of read. A miss nothing explains (no break in the rebuilt requests, no
// expired cache, no server verdict naming a change) is named as such, never as "no break".
import type { NormalizedUsage } from "../caching/usage";
import type { ExpiryReport } from "../caching/expiry";
import type { ServerCacheVerdict } from "../model";
import type { CauseReport, PrefixCause } from "./types";
import { SMALLEST_CACHEABLE_PREFIX } from "../caching/rules";

/** How the server's verdict compares with the break the rebuilt requests show. */
export type ServerAgreement = "agree" | "disagree" | "inconclusive" | "no-verdict";

interface ServerVerdictReading {
  /** The server's word (`tools_changed`, `none`, `unavailable`, …), null when the file records none. */
  serverVerdict: string | null;
  /** Input tokens the server says missed the cache after the divergence, null when it gives no figure. */
  serverMissedTokens: number | null;
  serverAgreement: ServerAgreement;
  /** The server names a change (model, system prompt, tools, messages, a setting): a break it reported. */
  serverBreak: boolean;
  /**
   * The recorded usage shows a miss (most of the previous call's prompt written to the cache again
   * instead of read) that neither the rebuilt requests, nor an expired cache, nor the server's
   * verdict explains.
   */
  unexplainedMiss: boolean;
  /** In plain words: what the server says beside what the rebuilt requests show; null when there is nothing to say. */
  note: string | null;
}

/** What a verdict says diverged, as the part of the request it names. */
type VerdictPart = "model" | "system" | "tools" | "messages" | "settings";

/**
 * The verdicts that name a change, by the provider's word: Anthropic's four `*_changed` types, and
 * OpenAI's reasons (`input_changed` is its messages; the others are request settings).
 */
const CHANGED: Readonly<Record<string, VerdictPart>> = {
  model_changed: "model",
  system_changed: "system",
  tools_changed: "tools",
  messages_changed: "messages",
  input_changed: "messages",
  prompt_cache_key_changed: "settings",
  service_tier_changed: "settings",
  reasoning_effort_changed: "settings",
  text_verbosity_changed: "settings",
  text_format_changed: "settings",
};

/** The server's verdict in words, as "the server says …" ends. */
const PART_WORDS: Readonly<Record<VerdictPart, string>> = {
  model: "the model changed",
  system: "the system prompt changed",
  tools: "the tool definitions changed",
  messages: "the messages changed",
  settings: "a request setting changed",
};

/** That part of the request as a noun, with the verb it takes. */
const PART_NOUNS: Readonly<Record<VerdictPart, { noun: string; is: string }>> = {
  model: { noun: "model", is: "is" },
  system: { noun: "system prompt", is: "is" },
  tools: { noun: "tool definitions", is: "are" },
  messages: { noun: "messages", is: "are" },
  settings: { noun: "request settings", is: "are" },
};

/** Why a verdict does not say what changed, in words. */
const INCONCLUSIVE_WORDS: Readonly<Record<string, string>> = {
  previous_message_not_found: "the server no longer had the previous request to compare with",
  comparison_response_not_found: "the server no longer had the previous request to compare with",
  unavailable: "the server gave no diagnosis for this request",
  pending: "the server's comparison had not finished when the response was written",
};

/** A recorded verdict in plain words, for the page: what the server says changed, or why it cannot tell. */
export function serverVerdictInWords(type: string, missedTokens: number | null): string {
  if (type === "none") return "nothing changed since the previous request";
  const part = CHANGED[type];
  if (part) return missedTokens !== null ? `${PART_WORDS[part]}; ${formatTokens(missedTokens)} input tokens missed the cache` : PART_WORDS[part];
  return `no diagnosis: ${INCONCLUSIVE_WORDS[type] ?? `a verdict this version does not know ("${type}")`}`;
}

/** Our break as the part of the request it is in (the same names as the verdicts'). */
function ourPart(cause: PrefixCause | null, diagnosticsName: CauseReport["diagnosticsName"]): VerdictPart | null {
  if (cause === null) return null;
  if (cause === "settings-changed") return "settings";
  if (diagnosticsName === null) return "messages";
  return diagnosticsName.replace("_changed", "") as VerdictPart;
}

export interface VerdictInput {
  verdict: ServerCacheVerdict | null | undefined;
  /** The request before this one exists (the first request has nothing to compare with). */
  hasPrevious: boolean;
  cause: PrefixCause | null;
  causeWords: string | null;
  diagnosticsName: CauseReport["diagnosticsName"];
  breakPath: string | null;
  /** The cache levels of the request whose content the file does not record (`tools`, `system`). */
  unrecordedLevels: readonly string[];
  usage: NormalizedUsage | null;
  /** Input tokens the previous call recorded (what it left in the cache), null when unknown. */
  previousRecordedInput: number | null;
  expiry: ExpiryReport | null;
}

function formatTokens(tokens: number): string {
  return tokens.toLocaleString("en-US");
}

/**
 * The recorded usage shows most of the previous call's prompt written again instead of read. A
 * previous prompt shorter than any provider caches could never be read back: no miss.
 */
function recordedMiss(usage: Pick<NormalizedUsage, "cacheRead" | "cacheWrite"> | null, previousInput: number | null): boolean {
  if (!usage || previousInput === null || previousInput < SMALLEST_CACHEABLE_PREFIX) return false;
  return usage.cacheRead < previousInput / 2 && usage.cacheWrite >= previousInput / 2;
}

/**
 * The provider reported a break of the cached prefix, read from the file alone (no rebuilt
 * request): its recorded verdict names a change, or the recorded usage writes most of the previous
 * call's prompt to the cache again instead of reading it.
 */
export function providerReportedBreak(verdict: string | null, usage: Pick<NormalizedUsage, "cacheRead" | "cacheWrite"> | null, previousInput: number | null): boolean {
  return (verdict !== null && CHANGED[verdict] !== undefined) || recordedMiss(usage, previousInput);
}

function missWords(usage: NormalizedUsage, previousInput: number): string {
  return `the recorded usage reads ${formatTokens(usage.cacheRead)} tokens from the cache and writes ${formatTokens(usage.cacheWrite)} again, where the previous call had ${formatTokens(previousInput)}`;
}

/** What the server says, with the tokens it says missed. */
function serverSays(part: VerdictPart, verdict: ServerCacheVerdict): string {
  const missed = verdict.missedTokens !== null ? ` (${formatTokens(verdict.missedTokens)} input tokens missed the cache)` : "";
  return `The server says ${PART_WORDS[part]}${missed}`;
}

/** The server names a change the rebuilt requests do not show where it says. */
function disagreementWords(part: VerdictPart, verdict: ServerCacheVerdict, input: VerdictInput, ours: VerdictPart | null): string {
  const says = serverSays(part, verdict);
  const { noun, is } = PART_NOUNS[part];
  if (ours === null) {
    if (input.unrecordedLevels.includes(part)) {
      return `${says}. The file does not record the ${noun}, so the rebuilt requests cannot show the change: the difference is in something the transcript does not record.`;
    }
    return `${says}; the ${noun} rebuilt from the file ${is} identical up to here — the difference is in something the transcript does not record.`;
  }
  const where = input.breakPath !== null ? ` at ${input.breakPath}` : "";
  return `${says}; the rebuilt requests first differ in the ${PART_NOUNS[ours].noun}${where} (${input.causeWords ?? "a change"}) — the rebuild and what was sent differ there, or the transcript does not record the change the server saw.`;
}

/** Reads a turn's recorded verdict against the break the rebuilt requests show. */
export function readServerVerdict(input: VerdictInput): ServerVerdictReading {
  const verdict = input.verdict ?? null;
  const part = verdict ? (CHANGED[verdict.type] ?? null) : null;
  const ours = ourPart(input.cause, input.diagnosticsName);
  const miss = input.hasPrevious && recordedMiss(input.usage, input.previousRecordedInput);
  const explained = ours !== null || part !== null || input.expiry?.status === "expired";
  const unexplainedMiss = miss && !explained;
  // Every turn reads one: each return makes its reading in one object, not a base and a copy.
  const base = (serverAgreement: ServerAgreement, note: string | null): ServerVerdictReading => ({
    serverVerdict: verdict?.type ?? null,
    serverMissedTokens: verdict?.missedTokens ?? null,
    serverBreak: part !== null,
    unexplainedMiss,
    serverAgreement,
    note,
  });
  const missNote = unexplainedMiss ? ` A cache miss the rebuilt requests cannot explain: ${missWords(input.usage!, input.previousRecordedInput!)}.` : "";

  if (verdict === null) {
    const note = unexplainedMiss ? `A cache miss the rebuilt requests cannot explain: ${missWords(input.usage!, input.previousRecordedInput!)}, and no break shows in the rebuilt requests.` : null;
    return base("no-verdict", note);
  }
  if (!input.hasPrevious) return base("inconclusive", null);
  if (verdict.type === "none") {
    if (ours === null) return base("agree", unexplainedMiss ? `The server found nothing changed since the previous request.${missNote}` : null);
    const where = input.breakPath !== null ? ` at ${input.breakPath}` : "";
    return base(
      "disagree",
      `The server found nothing changed since the previous request; the rebuilt requests differ${where} (${input.causeWords ?? "a change"}) — the rebuild differs there from what was sent.`,
    );
  }
  if (part === null) {
    const why = INCONCLUSIVE_WORDS[verdict.type] ?? `the server's verdict "${verdict.type}" does not say what changed`;
    return base("inconclusive", `No server verdict to compare: ${why}.${missNote}`);
  }
  if (ours === part) return base("agree", `${serverSays(part, verdict)}, as the rebuilt requests show.`);
  return base("disagree", disagreementWords(part, verdict, input, ours));
}

/** How many turns' recorded verdicts agree with the rebuilt requests (`check` and `scan` count them per session). */
export interface ServerVerdictTally {
  agree: number;
  disagree: number;
  inconclusive: number;
  noVerdict: number;
}

export function emptyServerVerdictTally(): ServerVerdictTally {
  return { agree: 0, disagree: 0, inconclusive: 0, noVerdict: 0 };
}

export function tallyServerVerdict(tally: ServerVerdictTally, agreement: ServerAgreement): void {
  if (agreement === "no-verdict") tally.noVerdict++;
  else tally[agreement]++;
}
