// The Qwen Code agent (a fork of Gemini CLI whose records look like Claude Code's): its chat-file
// reader, the fold of the file into the history of every call, its Chat Completions request
// builder, its chat compressions as recorded compactions, and each compression's request.
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { buildQwenAuxiliaryRequest, qwenAuxiliaryEvents } from "./auxiliary";
import { learnQwenCodeCapture } from "./capture";
import { QWEN_NOT_DERIVABLE } from "./notDerivable";
import { QWEN_CODE_FORMAT_ID, qwenCodeReader } from "./reader";
import { QWEN_RECORD_CATALOG } from "./recordTypes";
import { analyzeQwenSession, buildQwenTurnContext, buildQwenTurnRequest, countQwenTurns } from "./turns";

export const qwenCodeAgent = {
  id: QWEN_CODE_FORMAT_ID,
  label: "Qwen Code",
  ruleDocs: [{ prefix: "FM-QW", doc: "docs/formats/qwen-code.md" }],
  readableFiles: [{ agent: "Qwen Code", files: "chat files (~/.qwen/projects/<project>/chats/<session id>.jsonl)" }],
  readers: [qwenCodeReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session, options) => ({ ...analyzeQwenSession(session, options), auxiliary: qwenAuxiliaryEvents(session) }),
    countTurns: (session) => countQwenTurns(session),
    buildTurnContext: (session, options, turn) => buildQwenTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildQwenTurnRequest(session, options, turn),
  },
  policies: [],
  // Each compression's request: its history and Qwen Code's compression prompt (auxiliary.ts).
  auxiliary: {
    build: buildQwenAuxiliaryRequest,
    synthesizedTexts: () => [],
  },
  // Compressions are shown on the timeline from the analysis; no simulator policy rebuilds them yet.
  recorded: null,
  records: QWEN_RECORD_CATALOG,
  // The turn summaries record usage in pi's shape (turns.ts, turnUsage).
  usageSource: "pi",
  options: [],
  notDerivable: QWEN_NOT_DERIVABLE,
  // A captured main request holds the system message, the tool schemas, max_tokens and the reminders added on send.
  captureLearner: { facts: (body, source, api) => (api === "openai-completions" ? learnQwenCodeCapture(body, source) : []) },
} satisfies AgentDescriptor;
