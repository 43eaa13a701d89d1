// What hermes-agent does when the summary call fails (CP-HA-6, CP-HA-30, CP-HA-31,
// NousResearch/hermes-agent agent/context_compressor.py): a distinct summary model is retried once
// on the main model; then authentication, quota or network failures (or `abort_on_summary_failure`)
// return the input unchanged, every other failure inserts a deterministic fallback summary (≤ 8000
// characters, the template's headings) that counts toward the "consecutive fallback" blocker; and
// a cooldown starts — no provider 600 s, timeouts 60 → 300 → 900 s, JSON decode / stream closed
// 30 s, other errors 60 s.
import { hermesFailureCooldown } from "./trigger";
import { cpHead } from "./codepoints";

export type HermesFailureKind = "none" | "auth" | "quota" | "network" | "timeout" | "json-decode" | "stream-closed" | "no-provider" | "other";
export const HERMES_FAILURE_KINDS: readonly HermesFailureKind[] = ["none", "auth", "quota", "network", "timeout", "json-decode", "stream-closed", "no-provider", "other"];

export interface HermesFailureInput {
  failure: HermesFailureKind;
  abortOnSummaryFailure: boolean;
  /** The configured summary model, when it differs from the main model. */
  summaryModel: string | null;
  mainModel: string;
  /** [INF HA-INF-RETRY] whether the retry on the main model fails the same way. */
  mainModelRetry: "same" | "ok";
  /** Consecutive timeouts so far, this one included (CP-HA-6 escalation). */
  consecutiveTimeouts: number;
}

export interface HermesFailureOutcome {
  /** The summary calls made, in order, with the model each went to. */
  attempts: { model: string; failed: boolean; ruleId: string }[];
  /** ok: a summary came back; unchanged: nothing compacted; fallback: deterministic summary inserted. */
  outcome: "ok" | "unchanged" | "fallback";
  cooldownSeconds: number | null;
  message: string | null;
}

function cooldownKind(kind: HermesFailureKind): Parameters<typeof hermesFailureCooldown>[0] {
  if (kind === "no-provider" || kind === "timeout" || kind === "json-decode" || kind === "stream-closed") return kind;
  return "other";
}

export function hermesFailureOutcome(input: HermesFailureInput): HermesFailureOutcome {
  const first = input.summaryModel ?? input.mainModel;
  if (input.failure === "none") return { attempts: [{ model: first, failed: false, ruleId: "CP-HA-31" }], outcome: "ok", cooldownSeconds: null, message: null };
  // No provider configured: no call is made at all.
  const attempts: HermesFailureOutcome["attempts"] = input.failure === "no-provider" ? [] : [{ model: first, failed: true, ruleId: "CP-HA-31" }];
  if (input.failure !== "no-provider" && input.summaryModel !== null && input.summaryModel !== input.mainModel) {
    const retryFails = input.mainModelRetry === "same";
    attempts.push({ model: input.mainModel, failed: retryFails, ruleId: "CP-HA-31" });
    if (!retryFails) return { attempts, outcome: "ok", cooldownSeconds: null, message: `the summary model ${input.summaryModel} failed (${input.failure}); the retry on the main model ${input.mainModel} succeeded (CP-HA-31)` };
  }
  const cooldownSeconds = hermesFailureCooldown(cooldownKind(input.failure), Math.max(1, input.consecutiveTimeouts));
  const returnsInput = input.failure === "auth" || input.failure === "quota" || input.failure === "network" || input.abortOnSummaryFailure;
  const cause = input.abortOnSummaryFailure && !(input.failure === "auth" || input.failure === "quota" || input.failure === "network") ? `${input.failure} with abort_on_summary_failure` : input.failure;
  return {
    attempts,
    outcome: returnsInput ? "unchanged" : "fallback",
    cooldownSeconds,
    message: returnsInput
      ? `summary call failed (${cause}): the input is returned unchanged; cooldown ${cooldownSeconds} s (CP-HA-30, CP-HA-6)`
      : `summary call failed (${cause}): a deterministic fallback summary is inserted and counts toward the consecutive-fallback blocker; cooldown ${cooldownSeconds} s (CP-HA-30, CP-HA-6)`,
  };
}

/** CP-HA-30 cap on the deterministic fallback summary. */
export const FALLBACK_SUMMARY_MAX_CHARS = 8000;

/**
 * [INF HA-INF-FALLBACK-TEXT] The deterministic fallback summary: the spec gives its cap and its
 * headings, not its text. Ours: one line naming the fallback, the template's headings each with
 * `(none)` except the task snapshot (filled by the output processing, CP-HA-26) and the given
 * files, cut to 8000 code points.
 */
const HERMES_TEMPLATE_HEADINGS = [
  "## Historical Task Snapshot", "## Goal", "## Constraints & Preferences", "## Completed Actions", "## Active State",
  "## Historical In-Progress State", "## Blocked", "## Key Decisions", "## Resolved Questions",
  "## Historical Pending User Asks", "## Relevant Files", "## Historical Remaining Work", "## Critical Context",
];

export function hermesFallbackSummary(kind: HermesFailureKind, files: readonly string[], headings: readonly string[] = HERMES_TEMPLATE_HEADINGS): string {
  const lines = [`[deterministic fallback summary: the summary call failed (${kind}); built without a model]`];
  for (const heading of headings) {
    lines.push("", heading);
    lines.push(heading === "## Relevant Files" && files.length > 0 ? files.map((f) => `- ${f}`).join("\n") : "(none)");
  }
  return cpHead(lines.join("\n"), FALLBACK_SUMMARY_MAX_CHARS);
}
