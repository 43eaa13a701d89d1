// The Codex CLI agent: its rollout reader, its own Responses request builder, its compaction
// policy, the rebuild of recorded `compacted` lines, and the linking of child rollouts.
import { learnCodexCapture } from "./capture";
import { CODEX_NOT_DERIVABLE } from "./notDerivable";
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { codexPolicy } from "./policy/policy";
import { codexReader, CODEX_FORMAT_ID } from "./reader";
import { codexRecordedCompactions } from "./recorded";
import { CODEX_RECORD_TYPES } from "./recordTypes";
import { carryCodexIndex } from "./rollout-index";
import { summarizeCodexLines } from "./summary";
import { codexMetaId, codexRolloutLineage, linkCodexRollouts } from "./threads";
import { analyzeCodexSession, buildCodexTurnContext, buildCodexTurnRequest, countCodexTurns, iterateCodexTurnRequests, STRIP_PLAN_TOOL_SECTIONS } from "./turns";

export const codexAgent = {
  id: CODEX_FORMAT_ID,
  label: "Codex CLI",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "Codex CLI", version: "0.171.0" }],
  ruleDocs: [
    { prefix: "FM-CX", doc: "docs/formats/codex.md" },
    { prefix: "CP-CX", doc: "docs/compaction-policies/codex.md" },
    { prefix: "CX-INF", doc: "docs/compaction-policies/codex.md" },
  ],
  readableFiles: [{ agent: "Codex CLI", files: "rollout JSONL (~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl), with child rollouts" }],
  readers: [codexReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session, options) => analyzeCodexSession(session, options),
    countTurns: (session) => countCodexTurns(session),
    buildTurnContext: (session, options, turn) => buildCodexTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildCodexTurnRequest(session, options, turn),
    // One walk of every turn: the session's common parts made once, the lists brought by each turn's new items.
    iterateTurnRequests: (session, options, hooks) => iterateCodexTurnRequests(session, options, hooks),
    // A followed rollout that grew goes on with the pass that indexed its earlier lines (rollout-index.ts).
    carryCaches: carryCodexIndex,
  },
  policies: [codexPolicy],
  recorded: codexRecordedCompactions,
  // A parent rollout dropped with its child rollouts: the children become its threads.
  linkFiles: (sessions) => linkCodexRollouts(sessions),
  summarize: summarizeCodexLines,
  // A child rollout names its parent thread: a folder listing puts it with its parent.
  fileLineage: (session) => codexRolloutLineage(session),
  // A session_meta line names its thread (a later one after the first: another session appended, or a fork's copied source).
  entrySessionId: (entry) => codexMetaId(entry),
  // The analyser records each turn's usage in pi's shape (CA-21).
  records: CODEX_RECORD_TYPES,
  usageSource: "pi",
  options: [
    {
      name: STRIP_PLAN_TOOL_SECTIONS,
      label: "Remove the plan-tool sections from the base instructions",
      default: true,
      ruleId: "FM-CX-10",
      inferred: "FM-CX-10",
      description: "Codex leaves the plan-tool sections out of the base instructions it sends when the plan tool is off; the rollout does not say whether it was.",
    },
  ],
  notDerivable: CODEX_NOT_DERIVABLE,
  // Codex sends OpenAI Responses: its instructions and client metadata teach model facts.
  captureLearner: { facts: (body, source, api) => (api === "openai-responses" ? learnCodexCapture(body, source) : []) },
} satisfies AgentDescriptor;
