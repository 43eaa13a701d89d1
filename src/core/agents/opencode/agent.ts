// The opencode agent: its export reader (the database is read by readOpencodeDatabase in this
// folder), its own chat request builder, its title and summariser requests, its compaction
// policy and its recorded compactions.
import type { AgentDescriptor, StorageSummary } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { buildOpencodeAuxiliaryRequest, buildOpencodeTurnRequest, TITLE_REQUEST_PREFIX } from "./index";
import { opencodePolicy } from "./policy/policy";
import { opencodeExportReader } from "./reader";
import { opencodeRecordedCompactions } from "./recorded";
import { OPENCODE_TABLES, readOpencodeDatabase } from "./database";
import { OPENCODE_FORMAT_ID, opencodeHeaderOf, type OpencodeSessionHeader } from "./session";
import { analyzeOpencodeSession, buildOpencodeTurnContext, countOpencodeTurns } from "./turns";

/** The storage line of a session read from a database (an export has none); Kilo's database is read the same way. */
export function databaseStorageSummary(header: Omit<OpencodeSessionHeader, "agent"> | null, agentLabel: string, storage: string): StorageSummary | undefined {
  if (!header || header.source !== "database") return undefined;
  return { sessionId: header.id, sessions: header.sessions, walApplied: header.walApplied === true, agentLabel, storage };
}

export const opencodeAgent = {
  id: OPENCODE_FORMAT_ID,
  label: "opencode",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "opencode", version: "1.18.33" }],
  ruleDocs: [
    { prefix: "FM-OC", doc: "docs/formats/opencode.md" },
    { prefix: "CP-OC", doc: "docs/compaction-policies/opencode.md" },
    // Behaviour inferred from recordings, named in the policy's and the conversion's tooltips.
    { prefix: "OC-INF", doc: "docs/compaction-policies/opencode.md" },
  ],
  readableFiles: [{ agent: "opencode", files: "`opencode export` JSON, or the opencode.db database with its opencode.db-wal" }],
  readers: [opencodeExportReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    analyze: (session, options) => analyzeOpencodeSession(session, options),
    countTurns: (session) => countOpencodeTurns(session),
    buildTurnContext: (session, options, turn) => buildOpencodeTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildOpencodeTurnRequest(session, options, turn),
  },
  policies: [opencodePolicy],
  recorded: opencodeRecordedCompactions,
  auxiliary: {
    build: buildOpencodeAuxiliaryRequest,
    synthesizedTexts: (event) =>
      event.purpose === "title"
        ? [{ text: TITLE_REQUEST_PREFIX, label: `Synthesised by opencode (${event.rule}, ${event.ruleId}): the fixed text of the title request, sent before the first prompt; not stored in the session.` }]
        : [],
  },
  // The analyser records each turn's usage in pi's shape (CA-21).
  usageSource: "pi",
  options: [],
  // opencode.db (FM-OC-1 … FM-OC-3). It is the database tried when no agent recognises the tables,
  // so its reader names what is missing.
  database: {
    fileName: "opencode.db",
    recognises: (tables) => OPENCODE_TABLES.every((name) => tables.includes(name)),
    read: (input) =>
      readOpencodeDatabase(input.query, { fileName: input.fileName, sessionId: input.sessionId, walApplied: input.walApplied, walWarnings: input.walWarnings }),
    readsUnrecognised: true,
  },
  storageSummary: (session) => databaseStorageSummary(opencodeHeaderOf(session), "opencode", "opencode.db"),
} satisfies AgentDescriptor;
