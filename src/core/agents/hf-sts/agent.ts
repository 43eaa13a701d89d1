// Hugging Face session traces (STS, docs/formats/sts.md): the format the Hub's trace viewer reads
// for harnesses it has no reader of, and the one `contextscope export --format sts` writes. Its
// reader, the fold of its messages into model calls, their requests approximated in the Chat
// Completions shape (the format records the conversation, not the requests) and the usage an
// answer carries when its writer added one.
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { STS_FORMAT_ID, stsReader } from "./reader";
import { STS_RECORD_CATALOG } from "./recordTypes";
import { analyzeStsSession, buildStsTurnContext, buildStsTurnRequest, countStsTurns } from "./turns";

export const stsAgent = {
  id: STS_FORMAT_ID,
  label: "Session trace (STS)",
  ruleDocs: [{ prefix: "FM-STS", doc: "docs/formats/sts.md" }],
  readableFiles: [{ agent: "Hugging Face session traces", files: 'STS files (a {"type":"session","harness",…} header, then message lines), such as `contextscope export --format sts` writes; requests approximated' }],
  readers: [stsReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session) => analyzeStsSession(session),
    countTurns: (session) => countStsTurns(session),
    buildTurnContext: (session, options, turn) => buildStsTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildStsTurnRequest(session, options, turn),
  },
  policies: [],
  recorded: null,
  records: STS_RECORD_CATALOG,
  // Usage, when a writer added it, is read into pi's shape (usage.ts).
  usageSource: "pi",
  options: [],
  // A trace is one session, named by its header's id.
  fileLineage: (session) => ({ id: typeof session.header?.id === "string" ? session.header.id : null, parentId: null }),
} satisfies AgentDescriptor;
