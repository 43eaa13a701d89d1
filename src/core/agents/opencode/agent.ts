// The opencode agent: its export reader (the database is read by readOpencodeDatabase in this
// folder), its own chat request builder, its title and summariser requests, its compaction
// policy and its recorded compactions.
import type { AgentDescriptor } from "../descriptor";
import { buildOpencodeAuxiliaryRequest, buildOpencodeTurnRequest, TITLE_REQUEST_PREFIX } from "./index";
import { opencodePolicy } from "./policy/policy";
import { opencodeExportReader } from "./reader";
import { opencodeRecordedCompactions } from "./recorded";
import { OPENCODE_FORMAT_ID } from "./session";
import { analyzeOpencodeSession, buildOpencodeTurnContext, countOpencodeTurns } from "./turns";

export const opencodeAgent = {
  id: OPENCODE_FORMAT_ID,
  label: "opencode",
  readers: [opencodeExportReader],
  pipeline: {
    analyze: (session, options) => analyzeOpencodeSession(session, options),
    countTurns: (session) => countOpencodeTurns(session),
    buildTurnContext: (session, options, turn) => buildOpencodeTurnContext(session, options, turn),
    buildTurnRequest: (session, options, turn) => buildOpencodeTurnRequest(session, options, turn),
  },
  profiles: [],
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
} satisfies AgentDescriptor;
