// The Gemini CLI agent: its chat-file reader (JSONL and the older single JSON object), the fold
// of the file into the history of every request, its generateContent request builder, its chat
// compression as recorded compactions and as a simulator policy.
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { learnGeminiCliCapture } from "./capture";
import { geminiNoteFiles } from "./companions";
import { GEMINI_NOT_DERIVABLE } from "./notDerivable";
import { geminiCompressionPolicy } from "./policy/policy";
import { GEMINI_CLI_FORMAT_ID, geminiCliReader } from "./reader";
import { carryGeminiFold } from "./history";
import { geminiRecordedCompressions } from "./recorded";
import { analyzeGeminiSession, buildGeminiTurnContext, buildGeminiTurnRequest, countGeminiTurns, iterateGeminiTurnRequests } from "./turns";

export const geminiCliAgent = {
  id: GEMINI_CLI_FORMAT_ID,
  label: "Gemini CLI",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "Gemini CLI", version: "0.61.0" }],
  ruleDocs: [{ prefix: "FM-GM", doc: "docs/formats/gemini-cli.md" }, { prefix: "CP-GM", doc: "docs/compaction-policies/gemini-cli.md" }],
  readableFiles: [{ agent: "Gemini CLI", files: "chat files (~/.gemini/tmp/<project>/chats/session-….jsonl, or the older session-….json)" }],
  readers: [geminiCliReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session, options) => analyzeGeminiSession(session, options),
    countTurns: (session) => countGeminiTurns(session),
    buildTurnContext: (session, options, turn) => buildGeminiTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildGeminiTurnRequest(session, options, turn),
    // Every turn in one walk: a reader that keeps no request past the turn after is handed two lists in turn, not copies.
    iterateTurnRequests: (session, options, hooks) => iterateGeminiTurnRequests(session, options, hooks),
    // A followed chat that grew goes on with the fold of its earlier records (history.ts); its turn summaries are kept (turns.ts).
    carryCaches: carryGeminiFold,
  },
  policies: [geminiCompressionPolicy],
  recorded: geminiRecordedCompressions,
  // The turn summaries record usage in pi's shape (turns.ts, turnUsage).
  usageSource: "pi",
  options: [],
  notDerivable: GEMINI_NOT_DERIVABLE,
  // A captured main request holds the system instruction, tool declarations and generationConfig.
  captureLearner: { facts: (body, source, api) => (api === "google-generative-ai" ? learnGeminiCliCapture(body, source) : []) },
  // projects.json and logs.json beside the chats: read into a chat opened with them.
  sideFiles: geminiNoteFiles,
} satisfies AgentDescriptor;
