// The open plan: what a set of files opened together is (a drop, a library row, files followed
// together, a file given alone), decided from their names, sizes and first bytes by asking the
// agents' descriptors (through src/core/session/). Hosts read the bytes the plan names and follow
// it; none of them looks at a header or tells one kind of side file from another.
//
// The decisions, in order:
// 1. A SQLite database among the files (its first bytes): it is read with its `-wal` (same name +
//    "-wal", or the only file ending in "-wal"), the `-shm` left out; the agents' store files among
//    the others go with it (hermes-agent's state.db with its snapshots and transcripts), the rest is
//    named, not read.
// 2. Several store files of one agent without a database (hermes-agent's snapshots, transcripts
//    and request dumps): read as one store, with a session picker.
// 3. Otherwise every other file is a session, compressed or not (its container by its first
//    bytes), linked by its agent when there are several (a session with its sub-agent files); an
//    agent's files of notes (Gemini CLI's projects.json) are read into the session. A note file
//    alone, or only a `-wal`/`-shm`, is refused with a message that says what to open instead.
import type { OwnedSideFile } from "../session/index";
import { DETECTION_LINE_COUNT, detectAgent, loneSideFileMessage, ownedSideFile, splitTextLines } from "../session/index";
import { pairDatabaseFiles } from "../storage/files";
import { utf8Decode } from "../util/utf8";
import type { Container } from "./containers/index";
import { headRole } from "./head";
import { baseName, isWhole, NOTE_FILE_MAX_BYTES, type IntakeContext, type IntakeSource } from "./source";

/** A file to read as a session. */
export interface PlannedSession {
  name: string;
  /** Its place among the sources given (names may repeat across folders). */
  index: number;
  /** The agent its first lines say, when the head holds them (null: the reader decides once the file is read). */
  agentId: string | null;
  /** The container it is compressed in, whose decoder the host loads first; null for plain bytes. */
  container: Container | null;
}

export type OpenPlan =
  | {
      kind: "database";
      /** The database file and its `-wal` (null: none given). */
      database: string;
      wal: string | null;
      /** An agent's store files given with it, read with the database. */
      sideFiles: OwnedSideFile[];
      /** The other files given with it: named in a warning, not read. */
      otherFileNames: string[];
    }
  | {
      kind: "store";
      /** One agent's store files, read together (the others given are not read). */
      files: OwnedSideFile[];
    }
  | {
      kind: "sessions";
      /** In the order given; several are linked by their agent. */
      sessions: PlannedSession[];
      /** Files of notes read into the session. */
      sideFiles: OwnedSideFile[];
    }
  | {
      kind: "refused";
      /** Why: an agent's note file with no session to read it into, or a database's own file without the database. */
      because: "side file alone" | "no database";
      /** What to say, with what to open instead. */
      message: string;
    };

/** The message for files that are only a database's `-wal`/`-shm`: names the file to give instead. */
export function missingDatabaseMessage(names: readonly string[]): string {
  const list = names.map((name) => `"${name}"`).join(" and ");
  return (
    `${list} ${names.length === 1 ? "is" : "are"} SQLite side file${names.length === 1 ? "" : "s"} (write-ahead log / shared memory), not a session. ` +
    "Expected the opencode database itself: drop opencode.db together with opencode.db-wal " +
    "(both in ~/.local/share/opencode/)."
  );
}

/** The file names a database's shared-memory index has (never read: SQLite rebuilds it from the WAL). */
const SHM_NAME = /-shm$/i;
const WAL_OR_SHM_NAME = /-(wal|shm)$/i;

/** The agent's side file of the kind `kind` the source is, when its head is the whole file. */
function sideFileOf(source: IntakeSource, kind: OwnedSideFile["kind"]): OwnedSideFile | null {
  if (!isWhole(source)) return null;
  if (kind === "session-notes" && source.size > NOTE_FILE_MAX_BYTES) return null;
  return ownedSideFile({ name: baseName(source.name), text: utf8Decode(source.head) }, kind);
}

/** The session `source` is: its container, and its agent when the head's first lines say. */
export function plannedSession(source: IntakeSource, index = 0): PlannedSession {
  const role = headRole(source.head);
  const container = role.kind === "compressed" ? role.container : null;
  let agentId: string | null = null;
  if (!container && role.kind === "plain") {
    try {
      agentId = detectAgent(detectionLines(source), baseName(source.name))?.id ?? null;
    } catch {
      agentId = null;
    }
  }
  return { name: source.name, index, agentId, container };
}

/**
 * The head's first complete non-empty lines, as many as detection looks at. Only the bytes up to
 * the last of them are decoded when they are all non-empty and more follows (a head of large
 * lines is decoded in part); otherwise the whole head, the same lines either way.
 */
function detectionLines(source: IntakeSource): string[] {
  const head = source.head;
  let end = -1;
  let count = 0;
  while (count < DETECTION_LINE_COUNT) {
    const next = head.indexOf(10, end + 1);
    if (next < 0) break;
    end = next;
    count++;
  }
  if (count === DETECTION_LINE_COUNT && end + 1 < head.length) {
    const first = splitTextLines(utf8Decode(head.subarray(0, end)));
    if (first.every((line) => line.trim() !== "")) return first;
  }
  const lines = splitTextLines(utf8Decode(head));
  if (!isWhole(source) && lines.length > 1) lines.pop();
  return lines.filter((line) => line.trim() !== "").slice(0, DETECTION_LINE_COUNT);
}

/** What the files of `sources`, opened together (or one alone), are. */
export function planOpen(sources: readonly IntakeSource[], context: IntakeContext): OpenPlan {
  const roles = sources.map((source) => headRole(source.head));
  const names = sources.map((source) => source.name);
  if (roles.some((role) => role.kind === "database")) {
    const pair = pairDatabaseFiles(sources.map((source) => ({ name: source.name, bytes: source.head })))!;
    const sideFiles = context.follow ? [] : sources.flatMap((source) => sideFileOf(source, "session-store") ?? []);
    const otherFileNames = names.filter((name, index) => roles[index]!.kind !== "database" && roles[index]!.kind !== "wal" && !WAL_OR_SHM_NAME.test(name) && !sideFiles.some((side) => side.name === baseName(name)));
    return { kind: "database", database: pair.database.name, wal: pair.wal?.name ?? null, sideFiles, otherFileNames };
  }
  if (context.together && !context.follow) {
    const stores = sources.flatMap((source) => sideFileOf(source, "session-store") ?? []);
    const agentFiles = storeOfOneAgent(stores);
    if (agentFiles) return { kind: "store", files: agentFiles };
  }
  const notes = sources.map((source) => sideFileOf(source, "session-notes"));
  const sideFiles = notes.flatMap((note) => note ?? []);
  // A lone file is read as it is; among several, a -wal or -shm is the database's, not a session.
  const others = sources.flatMap((source, index) => (notes[index] === null && (!context.together || (roles[index]!.kind !== "wal" && !SHM_NAME.test(source.name))) ? [plannedSession(source, index)] : []));
  if (others.length === 0 && sideFiles.length > 0) return { kind: "refused", because: "side file alone", message: loneSideFileMessage(sideFiles[0]!) };
  if (others.length === 0 || (others.length === 1 && roles[others[0]!.index]!.kind === "wal")) return { kind: "refused", because: "no database", message: missingDatabaseMessage(context.together ? names : [others[0]?.name ?? names[0] ?? ""]) };
  return { kind: "sessions", sessions: others, sideFiles };
}

/** The sources that are an agent's note files, to read into a session opened with them (`attachSideFiles`); each head the whole file. */
export function noteFilesAmong(sources: readonly IntakeSource[]): OwnedSideFile[] {
  return sources.flatMap((source) => sideFileOf(source, "session-notes") ?? []);
}

/** The store files of the first agent that has at least two among `stores`, or null. */
function storeOfOneAgent(stores: readonly OwnedSideFile[]): OwnedSideFile[] | null {
  const agents = [...new Set(stores.map((file) => file.agentId))];
  for (const agentId of agents) {
    const own = stores.filter((file) => file.agentId === agentId);
    if (own.length >= 2) return own;
  }
  return null;
}
