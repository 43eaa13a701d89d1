// The GitHub Copilot CLI agent: its event-log reader, the fold of the log into the main thread's
// model calls, their requests approximated in the Chat Completions shape (the CLI's request
// builder is not public), their usage and cost, its recorded compactions, and the session totals
// its shutdown events record.
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { COPILOT_CLI_FORMAT_ID, copilotCliReader } from "./reader";
import { COPILOT_RECORD_CATALOG } from "./recordTypes";
import { copilotSessionTotals } from "./totals";
import { analyzeCopilotSession, buildCopilotTurnContext, buildCopilotTurnRequest, countCopilotTurns } from "./turns";

export const copilotCliAgent = {
  id: COPILOT_CLI_FORMAT_ID,
  label: "GitHub Copilot CLI",
  ruleDocs: [{ prefix: "FM-CP", doc: "docs/formats/copilot-cli.md" }],
  readableFiles: [{ agent: "GitHub Copilot CLI", files: "event logs (~/.copilot/session-state/<session id>/events.jsonl); requests approximated" }],
  readers: [copilotCliReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session) => analyzeCopilotSession(session),
    countTurns: (session) => countCopilotTurns(session),
    buildTurnContext: (session, options, turn) => buildCopilotTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildCopilotTurnRequest(session, options, turn),
  },
  policies: [],
  // Compactions are shown on the timeline from the analysis; Copilot's summariser is not public.
  recorded: null,
  records: COPILOT_RECORD_CATALOG,
  // The turn summaries record usage in pi's shape (usage.ts).
  usageSource: "pi",
  options: [],
  // A log without usage per call is priced from its shutdown totals.
  sessionUsageTotals: copilotSessionTotals,
  // The session a log is of, as its session.start names it (a log is one session; sub-agents live inside it).
  fileLineage: (session) => ({ id: typeof session.header?.sessionId === "string" ? session.header.sessionId : null, parentId: null }),
} satisfies AgentDescriptor;
