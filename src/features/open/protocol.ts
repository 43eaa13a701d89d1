// What the open feature hands the page: where a session's bytes come from, how far reading got,
// and the summary of the session opened (its agent, warnings, database, threads, share view).
// Plain, structured-cloneable data; types only.
import type { CompanionNote, ProfileId, ReaderWarning } from "../../core/model";
import type { RuleDoc, StorageSessionListing } from "../../core/session/index";
import type { ShareViewV1 } from "../../core/share/payload-v1";
import type { ThreadInfo } from "../../app/threads";
import type { SniffedKind } from "./sniffSessions";

/** Where the bytes of a session come from. A `File` is cloned by reference (no copy). */
export type OpenSource =
  /** `handle`: the file is followed as it grows (File System Access API; the worker keeps its reader). */
  | { kind: "file"; file: File; handle?: FileSystemFileHandle }
  /**
   * Several files dropped or picked together: an opencode database with its `-wal` (and `-shm`,
   * ignored), FM-OC-1, read as one session (`sessionId`, default the most recent); without a
   * database among them, the first file is read as a text session.
   */
  | {
      kind: "files";
      files: File[];
      sessionId?: string | null;
      /** The files' handles, in the same order: the set is followed as it changes (a database with its -wal, a session with its sub-agent files). */
      handles?: FileSystemFileHandle[];
    }
  | { kind: "bytes"; name: string; bytes: ArrayBuffer }
  | { kind: "text"; name: string; text: string }
  /** Same-origin URL (built-in samples), resolved by the UI against the page's base URL. */
  | { kind: "url"; name: string; url: string }
  /** A share link (`#v2=…` fragment or whole URL): decoded and validated in the worker. */
  | { kind: "share-link"; link: string }
  /** A reproduction bundle file (`{"contextscope":"bundle",…}`), e.g. dropped on the page. */
  | { kind: "share-bundle"; name: string; data: Blob | string };

export interface LoadProgress {
  bytesRead: number;
  /** Null when the size is unknown (a response without Content-Length). */
  totalBytes: number | null;
  lines: number;
}

/** What the UI learns about an opened session. */
/** The agent that wrote a session, for the UI (src/features/open/agentInfo.ts). */
export interface AgentInfo {
  id: string;
  label: string;
  /** Profiles the user can choose between (pi: pi and senpi); empty when the agent has only its own. */
  profiles: { id: ProfileId; label: string; replyLanguageNotes: boolean }[];
  /** The profile the file shows it was written with (a senpi file), or null: the page opens it with that one. */
  sessionProfile: ProfileId | null;
  /** Recorded compactions are rebuilt in the agent's own summariser form (pi, PI-R12). */
  rebuildsRecordedCompactions: boolean;
  /** What to drop to see sub-agents whose files were not opened with the session (descriptor's `missingThreadFiles`). */
  missingThreadFiles?: string;
  /** The session file itself records the system prompt and tool definitions (deepseek-harness). */
  recordsSystemAndTools: boolean;
}

export interface SessionSummary {
  /**
   * The open run that read the session: its identity on the page. Every analysis result names the
   * run it was made for (src/worker/madeFor.ts), and the page drops one that is not this one's.
   */
  runId: number;
  fileName: string;
  formatId: string;
  /** The agent that wrote the file; null for an empty input. */
  agent: AgentInfo | null;
  formatLabel: string;
  formatVersion: number | null;
  entryCount: number;
  lineCount: number;
  byteLength: number;
  warnings: ReaderWarning[];
  /** Set when the input was an opencode SQLite database (session picker, WAL banner). */
  database?: DatabaseSummary;
  /** Set when the session came from a share link or bundle: the view to restore. */
  shared?: SharedOpenInfo;
  /** Sub-agent threads of the session (Session.threads), for the thread list. */
  threads?: ThreadInfo[];
  /** Names of the files read into this session, when several were opened together. */
  fileNames?: string[];
  /** What files opened with it that are not sessions said (Gemini CLI's projects.json, logs.json). */
  companionNotes?: CompanionNote[];
  /** What the file holds that this version reads, skips on purpose or does not know (agents with a catalogue of record types). */
  records?: RecordsSummary;
  /**
   * Set while the file is still being read: the session holds the entries read so far (a
   * provisional view; the final one replaces it). Branches end at the last entry read so far.
   */
  provisional?: { bytesRead: number; totalBytes: number | null };
}

/** The report of what a file holds (src/core/session/recordReport.ts), in words for the session overview. */
export interface RecordsSummary {
  /** "412 lines of 3 types this version of Contextscope does not read: …"; null when every type is known. */
  unknown: string | null;
  /** "written by Claude Code 2.1.143"; null when the file names no version. */
  versions: string | null;
  /** "Claude Code 2.1.400 is newer than the newest version verified, 2.1.332"; null when none is newer. */
  newer: string | null;
  /** One line per type read or skipped on purpose, with its count (and why, for a skipped one). */
  details: string[];
}

/** The view a share link or bundle restores (docs/share-format.md). */
export interface SharedOpenInfo {
  from: "link" | "bundle";
  version: number;
  scope: "full" | "branch";
  view: ShareViewV1;
}

/**
 * One session of a database's picker: opencode's listing, with hermes-agent's own facts when the
 * storage is hermes' (platform source, model, how it is linked to its parent, end reason).
 */
export type DatabaseSessionListing = StorageSessionListing;

/** What the UI needs to pick another session of a database and to warn about a missing WAL. */
export interface DatabaseSummary {
  /** The session shown. */
  sessionId: string;
  /** Every session of the database, newest first (sub-agent sessions name their parent). */
  sessions: DatabaseSessionListing[];
  /** The agent whose storage it is ("opencode", "hermes-agent"), for the picker's and banner's texts. */
  agentLabel: string;
  /** What was opened: "opencode.db", "state.db" or "hermes files" (snapshots, transcripts, dumps). */
  storage: string;
  /** False when the database was opened without its `-wal` file: recent rows may be missing. */
  walApplied: boolean;
  /** Names of the files the database was read from. */
  fileNames: string[];
}

/** The open feature's calls (the open itself is a message of its own, see src/worker/protocol.ts). */
export interface OpenMethods {
  /** For each file (a dropped `.json` file), in order, whether it starts like a session a reader recognises. */
  sniffSessions: { params: { files: File[] }; result: SniffedKind[] };
  /** Every agent and file kind the readers know, for the page shown before a session is open. */
  readableFiles: { params: Record<string, never>; result: { agent: string; files: string }[] };
  /** Where each family of rule ids is documented (the agents' from their descriptors), for the tooltips that name a rule. */
  ruleDocs: { params: Record<string, never>; result: RuleDoc[] };
}
