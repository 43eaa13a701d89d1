// Crush's automatic summarisation in the simulator (docs/formats/crush.md, FM-CR-14 and FM-CR-15),
// from its source: after each step, with `cw` the model's context window, Crush summarises once
// `cw − (prompt + output tokens of the last call) ≤ threshold`, the threshold being 20,000 tokens
// for a window above 200,000 and 20% of the window otherwise. Everything since the last summary is
// summarised and nothing is kept verbatim: the next request is the system prompt, the todo
// reminder and the summary sent as a user message. crush.db records no usage per call, so the
// tokens are the rebuilt request's estimate. It runs on Crush sessions only (it rebuilds Crush's own
// summariser request).
import type { ContextMessage, Session } from "../../model";
import { emptyResultParts } from "../../simulate/empty-result";
import { simulationResult, tokenSummary } from "../../simulate/result";
import { afterCompaction, entryRange } from "../../simulate/single-call-parts";
import { resolveSummary } from "../../simulate/summary-text";
import { estimateJsonTokens, estimateTextTokens } from "../../simulate/text-tokens";
import type { CompactionPolicy, SimulationContext, SimulationInput, SimulationResult, TriggerDecision, Verdict } from "../../simulate/types";
import { makeVerdict } from "../../simulate/verdict";
import { crushTurnEnd, reminder, summariserMessages } from "./pipeline";
import { CRUSH_FORMAT_ID } from "./session";
import { CRUSH_SUMMARY_PROMPT } from "./summariser";

const LARGE_WINDOW = 200_000;
const LARGE_WINDOW_BUFFER = 20_000;
const SMALL_WINDOW_RATIO = 0.2;
/** The sections Crush's summary prompt asks for, for a placeholder summary. */
const SUMMARY_HEADINGS = ["## Current State", "## Files & Changes", "## Technical Context", "## Strategy & Approach", "## Exact Next Steps"];
const CHECKED: readonly Verdict[] = ["not-triggered", "nothing-to-compact", "compacted"];

function crushTrigger(input: SimulationInput, context: SimulationContext): TriggerDecision {
  const window = context.limits.contextWindow;
  const tokens = estimateJsonTokens(context.turnRequest.body);
  const threshold = window > LARGE_WINDOW ? LARGE_WINDOW_BUFFER : Math.floor(window * SMALL_WINDOW_RATIO);
  const remaining = window - tokens;
  const manual = input.manual === true;
  // A window of 0 (unknown to Crush) never triggers, nor does a session with summarisation off.
  const result = window > 0 && remaining <= threshold && context.parameters.disableAutoSummarize !== true;
  return {
    evaluated: !manual,
    manual,
    operands: [
      { name: "contextWindow", value: window, source: context.limits.contextWindowSource },
      { name: "tokens", value: tokens, source: "turn N's rebuilt request, chars/4 (crush.db keeps no usage per call)" },
    ],
    operator: "<=",
    left: remaining,
    right: threshold,
    result,
    expression: `${window} − ${tokens} = ${remaining} ≤ ${window > LARGE_WINDOW ? `${LARGE_WINDOW_BUFFER}` : `0.2 × ${window} = ${threshold}`} → ${result ? "summarise" : "no"}${manual ? " (/summarize: trigger skipped)" : ""}`,
    ruleId: "FM-CR-14",
    estimator: "chars/4 of the rebuilt request",
  };
}

function simulateCrush(policy: CompactionPolicy, input: SimulationInput, context: SimulationContext): SimulationResult {
  const trigger = crushTrigger(input, context);
  const session: Session = input.session;
  if (input.triggerOnly) return emptyResultParts(policy, input, context, trigger);
  const end = crushTurnEnd(session, input.turn);
  const sent = summariserMessages(session, end);
  const conversation = sent.slice(reminder(session).length);
  if (conversation.length === 0) return emptyResultParts(policy, input, context, trigger);
  const body = context.turnRequest.body;
  const system = (body.messages as { content: unknown }[] | undefined)?.[0]?.content ?? null;
  const summariserBody: Record<string, unknown> = {
    messages: [{ content: system, role: "system" }, ...sent.map((message) => message.wire), { content: CRUSH_SUMMARY_PROMPT, role: "user" }],
    model: body.model,
    stream_options: { include_usage: true },
    stream: true,
  };
  const summary = resolveSummary({ session, source: input.summary, recorded: null, headings: SUMMARY_HEADINGS });
  const summaryMessage: ContextMessage = { message: { role: "user", content: [{ type: "text", text: summary.text }] }, provenance: { rule: "summary:crush", entryId: null, explanation: "The summary, sent as a user message (FM-CR-13)." } };
  const afterMessages = [...reminder(session).map((message) => message.context), summaryMessage];
  const afterBody: Record<string, unknown> = { ...body, messages: [(body.messages as unknown[])[0], ...reminder(session).map((message) => message.wire), { content: summary.text, role: "user" }] };
  const summarisedIds = session.entries.slice(0, end).map((entry) => entry.id).filter((id) => context.turnContext.pathEntryIds.includes(id) || id === context.turnContext.entryId);
  const before = estimateJsonTokens(body);
  const after = estimateJsonTokens(afterBody);
  const compacted = input.manual === true || trigger.result;
  return simulationResult(policy, input, context, {
    trigger,
    partition: {
      kept: [],
      summarised: [entryRange("summarised", 0, context.turnContext.messages.length, summarisedIds, estimateJsonTokens(conversation.map((message) => message.wire)), "everything since the last summary", "FM-CR-15")],
      pruned: [],
      droppedWithoutSummary: [],
      details: { summarisedRows: end },
    },
    summariserRequests: compacted
      ? [
          {
            role: "summary",
            api: "openai-completions",
            form: "replay",
            body: summariserBody,
            maxTokens: null,
            dataPart: conversation.map((message) => message.wire),
            instructionSlots: [],
            cache: null,
            focusPlacement: input.focus ? "none: Crush's summariser takes no focus text (not used)" : null,
            redaction: "none",
            notes: ["the system prompt is Crush's summary prompt (templates/summary.md), not stored: shown as turn N's system prompt until a summariser capture is attached"],
          },
        ]
      : [],
    after: afterCompaction({ summary, messages: afterMessages, api: "openai-completions", turnBody: body, body: afterBody, breakReason: "the summary replaces every message after the reminder", storedRecord: { role: "assistant", is_summary_message: 1, parts: [{ type: "text", data: { text: summary.text } }] } }),
    verdict: makeVerdict(policy, compacted ? "compacted" : "not-triggered", "FM-CR-14"),
    tokens: tokenSummary("chars/4", before, after, estimateTextTokens(JSON.stringify(summariserBody))),
    findings: [],
    inferred: [],
  });
}

export const crushPolicy: CompactionPolicy = {
  id: CRUSH_FORMAT_ID,
  label: "Crush summarisation",
  rulePrefix: "FM-CR",
  parameters: [
    {
      name: "disableAutoSummarize",
      label: "automatic summarisation off",
      type: "boolean",
      default: false,
      ruleId: "FM-CR-14",
      description: "Crush's options.disable_auto_summarize: the window never triggers a summary; /summarize still does.",
    },
  ],
  checkedVerdicts: CHECKED,
  instructionSlots: [],
  simulate: (input, context) => simulateCrush(crushPolicy, input, context),
  notApplicable: (session) => (session.formatId === CRUSH_FORMAT_ID ? null : "Crush's summarisation rebuilds Crush's own requests: it runs on Crush sessions only."),
};
