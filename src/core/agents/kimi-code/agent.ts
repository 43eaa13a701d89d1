// The Kimi Code agent (MoonshotAI/kimi-code): its wire-file reader, the fold of the file into the
// history of every request, its Chat Completions request builder, its compactions as timeline
// events with their summariser requests, and the check of each rebuilt request against the
// `llm.request` record Kimi Code wrote for it (system prompt and tool list fingerprints, message
// count, model).
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { buildKimiAuxiliaryRequest, kimiAuxiliaryEvents } from "./auxiliary";
import { learnKimiCodeCapture } from "./capture";
import { KIMI_CODE_FORMAT_ID, kimiCodeReader } from "./reader";
import { KIMI_RECORD_CATALOG } from "./recordTypes";
import { analyzeKimiSession, buildKimiTurnContext, buildKimiTurnRequest, checkRequestRecords, countKimiTurns, describeRequestRecord } from "./turns";

export const kimiCodeAgent = {
  id: KIMI_CODE_FORMAT_ID,
  label: "Kimi Code",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "Kimi Code", version: "2.1.0" }],
  ruleDocs: [{ prefix: "FM-KM", doc: "docs/formats/kimi-code.md" }],
  readableFiles: [{ agent: "Kimi Code", files: "wire files (~/.kimi-code/sessions/<folder>/session_<id>/agents/main/wire.jsonl)" }],
  readers: [kimiCodeReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session, options) => ({ ...analyzeKimiSession(session, options), auxiliary: kimiAuxiliaryEvents(session) }),
    countTurns: (session) => countKimiTurns(session),
    buildTurnContext: (session, options, turn) => buildKimiTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildKimiTurnRequest(session, options, turn),
  },
  policies: [],
  // Each compaction's summariser request: its history and Kimi Code's handoff instruction (auxiliary.ts).
  auxiliary: {
    build: buildKimiAuxiliaryRequest,
    synthesizedTexts: () => [],
  },
  // Compactions are shown on the timeline from the fold; no simulator policy rebuilds them yet.
  recorded: null,
  records: KIMI_RECORD_CATALOG,
  // The turn summaries record usage in the shared shape (turns.ts, turnUsage: disjoint counts).
  usageSource: "pi",
  // The file holds the system prompt (profile.bind) and the tool list (llm.tools_snapshot).
  recordsSystemAndTools: true,
  options: [],
  // A captured request names the session folder, sent as prompt_cache_key (capture.ts).
  captureLearner: { facts: (body, source, api) => (api === "openai-completions" ? learnKimiCodeCapture(body, source) : []) },
  // Every request's own record (`llm.request`) against the rebuilt one.
  requestDumps: {
    applies: (session) => session.entries.some((entry) => entry.type === "llm.request"),
    check: (session, options) => checkRequestRecords(session, options),
    describe: describeRequestRecord,
    noDumpsMessage: (file) => `${file} holds no llm.request record (Kimi Code writes one before every request it sends)`,
  },
} satisfies AgentDescriptor;
