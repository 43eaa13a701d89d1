// The Kilo Code CLI agent, a fork of opencode: its database (kilo.db, told from opencode.db by
// Kilo's own tables) read by opencode's reader, opencode's turns and auxiliary requests (title,
// summariser), its own main request (opencode's body with an `<environment_details>` block on
// every user message), and its compaction policy.
import type { AgentDescriptor } from "../descriptor";
import { databaseStorageSummary, opencodeAgent } from "../opencode/agent";
import { TITLE_REQUEST_PREFIX } from "../opencode/index";
import { isKiloDatabase, readKiloDatabase } from "./database";
import { kiloShareReader } from "./shareReader";
import { kiloPolicy } from "./policy";
import { buildKiloAuxiliaryRequest } from "./summariser";
import { KILO_RECORD_CATALOG } from "./recordTypes";
import { buildKiloTurnRequest } from "./request";
import { KILO_FORMAT_ID, kiloHeaderOf } from "./session";

export const kiloAgent = {
  id: KILO_FORMAT_ID,
  label: "Kilo",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "Kilo Code CLI", version: "7.7.7" }],
  ruleDocs: [{ prefix: "FM-KI", doc: "docs/formats/kilo.md" }],
  readableFiles: [{ agent: "Kilo Code CLI", files: "the kilo.db database with its kilo.db-wal (~/.local/share/kilo/)" }],
  // kilo.db is a database, opened by `database` below; the only text Kilo's is a share link's copy
  // of a session, read back by this reader (never chosen by detection).
  readers: [kiloShareReader],
  estimateMessageChars: opencodeAgent.estimateMessageChars,
  // opencode's analysis, turn count and turn context; only the main request is Kilo's own.
  pipeline: { ...opencodeAgent.pipeline, buildTurnRequest: (session, options, turn) => buildKiloTurnRequest(session, options, turn) },
  policies: [kiloPolicy],
  recorded: { ...opencodeAgent.recorded, rebuildPolicy: () => KILO_FORMAT_ID },
  auxiliary: {
    build: buildKiloAuxiliaryRequest,
    synthesizedTexts: (event) =>
      event.purpose === "title"
        ? [{ text: TITLE_REQUEST_PREFIX, label: "Synthesised by Kilo (as opencode): the fixed text of the title request, sent before the first prompt; not stored in the session." }]
        : [],
  },
  records: KILO_RECORD_CATALOG,
  usageSource: opencodeAgent.usageSource,
  options: opencodeAgent.options,
  database: {
    fileName: "kilo.db",
    recognises: isKiloDatabase,
    read: readKiloDatabase,
  },
  storageSummary: (session) => databaseStorageSummary(kiloHeaderOf(session), "Kilo", "kilo.db"),
} satisfies AgentDescriptor;
