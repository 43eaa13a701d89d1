// The Crush agent (charmbracelet/crush): its project database `.crush/crush.db` read row by row
// (./database.ts), each main request rebuilt as fantasy's OpenAI provider sends it
// (./pipeline.ts), its summaries as compactions with their summariser requests (./summariser.ts).
// Nothing in crush.db names the Crush version, and no request of ours was recorded from the real
// CLI (docs/formats/crush.md says why), so no version is named as verified.
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { isCrushDatabase, readCrushDatabase } from "./database";
import { crushShareReader } from "./shareReader";
import { analyzeCrushSession, buildCrushTurnContext, buildCrushTurnRequest, countCrushTurns } from "./pipeline";
import { crushPolicy } from "./policy";
import { CRUSH_RECORD_CATALOG } from "./recordTypes";
import { buildCrushAuxiliaryRequest, crushSynthesizedTexts } from "./summariser";
import { CRUSH_FORMAT_ID, crushHeaderOf } from "./session";

export const crushAgent = {
  id: CRUSH_FORMAT_ID,
  label: "Crush",
  ruleDocs: [{ prefix: "FM-CR", doc: "docs/formats/crush.md" }],
  readableFiles: [{ agent: "Crush", files: "the project's .crush/crush.db database with its crush.db-wal" }],
  // crush.db is a database, opened by `database` below; the only text Crush's is a share link's
  // copy of a session, read back by this reader (never chosen by detection).
  readers: [crushShareReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session) => analyzeCrushSession(session),
    countTurns: (session) => countCrushTurns(session),
    buildTurnContext: (session, options, turn) => buildCrushTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildCrushTurnRequest(session, options, turn),
  },
  policies: [crushPolicy],
  recorded: null,
  auxiliary: { build: buildCrushAuxiliaryRequest, synthesizedTexts: crushSynthesizedTexts },
  records: CRUSH_RECORD_CATALOG,
  usageSource: "pi",
  options: [],
  database: {
    fileName: "crush.db",
    recognises: isCrushDatabase,
    read: readCrushDatabase,
  },
  storageSummary: (session) => {
    const header = crushHeaderOf(session);
    if (!header) return undefined;
    return { sessionId: header.id, sessions: header.sessions, walApplied: header.walApplied, agentLabel: "Crush", storage: "crush.db" };
  },
} satisfies AgentDescriptor;
