// The hermes-agent: its own storage (state.db with -wal, session_<id>.json snapshots, <id>.jsonl
// transcripts, request dumps, `hermes sessions export`; ./storage/) and the hand-made chat-message
// list, the pipeline that rebuilds each API call as hermes assembles it (./agentPipeline.ts), its
// compaction policy (with the summariser role split) and its recorded compressions.
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { hermesPipeline } from "./agentPipeline";
import { hermesPolicy } from "./policy/policy";
import { HERMES_FORMAT_ID, messageListReader } from "./reader";
import { hermesRecorded } from "./recorded";
import { hermesFilesReader } from "./storage/readers";
import { checkRequestDumps, describeDumpCheck } from "./storage/dumps";
import { readHermesStorage } from "./storage/open";
import { hermesStorageHeaderOf } from "./storage/session";
import { modelRef } from "./storage/pipeline";
import { readHermesSideFile, sessionIdFromFileName } from "./storage/sideFiles";
import { isHermesStateDb } from "./storage/stateDb";

export const hermesAgent = {
  id: HERMES_FORMAT_ID,
  label: "hermes-agent",
  ruleDocs: [
    { prefix: "FM-HA", doc: "docs/formats/hermes-agent.md" },
    { prefix: "HS-", doc: "docs/formats/hermes-agent.md" },
    { prefix: "CP-HA", doc: "docs/compaction-policies/hermes-agent.md" },
    // Behaviour inferred from recordings, named in the policy's tooltips.
    { prefix: "HA-INF", doc: "docs/compaction-policies/hermes-agent.md" },
  ],
  readableFiles: [
    {
      agent: "hermes-agent",
      files: "state.db (with state.db-wal), sessions/session_<id>.json snapshots, <id>.jsonl transcripts, request_dump_*.json, or the home folder",
    },
    { agent: "chat message list", files: "a JSON array of OpenAI chat messages" },
  ],
  readers: [messageListReader, hermesFilesReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: hermesPipeline,
  policies: [hermesPolicy],
  recorded: hermesRecorded,
  usageSource: "pi",
  options: [],
  // state.db (HS-8): its tables `sessions` and `messages` say it is hermes'.
  database: {
    fileName: "state.db",
    recognises: isHermesStateDb,
    read: (input) =>
      readHermesStorage({
        database: { query: input.query, fileName: input.fileName, walApplied: input.walApplied, walWarnings: input.walWarnings },
        sideFiles: input.sideFiles,
        otherFileNames: input.otherFileNames,
        sessionId: input.sessionId,
      }),
  },
  // The side files of `<home>/sessions/` (HS-3): snapshots, transcripts, request dumps and the gateway's routing index.
  sideFiles: {
    kind: "session-store",
    namePattern: /(^|[\\/])(session_.+\.json|request_dump_.+\.json|[^\\/]+\.jsonl|sessions\.json)$/i,
    folderBesideDatabase: "sessions",
    homeDatabaseName: "state.db",
    accepts: (name, text) => readHermesSideFile(name, text) !== null,
    // A snapshot or transcript given alone brings the request dumps of its session (HS-32).
    companions: (name, folderNames) => {
      const id = sessionIdFromFileName(name);
      if (id === null || /^request_dump_/i.test(name)) return [];
      return folderNames.filter((other) => other.startsWith(`request_dump_${id}_`));
    },
    read: (files, sessionId) => readHermesStorage({ sideFiles: files, sessionId }),
  },
  storageSummary: (session) => {
    const hermes = hermesStorageHeaderOf(session);
    if (!hermes) return undefined;
    return {
      sessionId: hermes.sessionId,
      sessions: hermes.sessions,
      walApplied: hermes.origin.walApplied,
      agentLabel: "hermes-agent",
      storage: hermes.origin.kind === "state.db" ? "state.db" : "hermes files",
    };
  },
  // state.db keeps token counters per session (schema 5 on), none per message.
  sessionUsageTotals: (session) => {
    const hermes = hermesStorageHeaderOf(session);
    if (!hermes) return [];
    return hermes.segments.flatMap((segment) =>
      segment.usageTotals
        ? [{ sessionId: segment.sessionId, source: "state.db", usage: segment.usageTotals, model: modelRef(segment), at: session.entries[segment.start]?.timestamp ?? null }]
        : [],
    );
  },
  requestDumps: {
    applies: (session) => hermesStorageHeaderOf(session) !== null,
    check: checkRequestDumps,
    describe: describeDumpCheck,
    noDumpsMessage: (file) =>
      `no request_dump_*.json of this session beside ${file} (hermes writes them to <HERMES_HOME>/sessions/ with HERMES_DUMP_REQUESTS=1 or on failed requests, HS-34)`,
  },
} satisfies AgentDescriptor;
