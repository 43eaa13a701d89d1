// What one agent brings to Contextscope, in one value: its readers, its context pipeline, its
// pipeline profiles, its compaction policies, how its recorded compactions are located and
// rebuilt, how its usage records are normalised, its options, what it learns from captured
// requests, the databases and side files it keeps sessions in, and the checks of its requests
// against ground truth it writes. Each folder under src/core/agents/ exports one AgentDescriptor;
// agents/registry.ts lists them and src/core/session/ alone reads that list. Code outside an
// agent's folder asks the descriptor instead of comparing agent or policy ids.
import type { CompactionRebuild, CompactionRebuildOptions } from "./pi/compaction/rebuild";
import type { CapturedCompactionRequest, CompactionInstructions } from "./pi/compaction/instructions";

// The standalone rebuild of recorded compactions and the summariser captures that fill it are the
// pi family's (the only agent that has them); their types are part of the seam, named here so code
// outside src/core/agents/ takes them from the descriptor, not from the agent's folder.
export type { CompactionRebuildOptions, CapturedCompactionRequest, CompactionInstructions };
export type { BoundaryRule } from "./pi/compaction/prepare";
import type { UsageSource } from "../caching/usage";
import type { AgentMessage, AuxiliaryRequestEvent, BuiltRequest, LearntCapture, CaptureFact, ModelRef, PipelineOptions, ProfileId, ReaderWarning, RecordedUsage, Session, SessionEntry, SessionListing } from "../model";
import type { FormatPipeline } from "../pipeline/types";
import type { FormatReader } from "../readers/types";
import type { CompactionPolicy, SimulationResult } from "../simulate/types";
import type { SqlQuery } from "../storage/sqlite";

/** A pipeline profile an agent's sessions can be rebuilt with (pi: pi or senpi). */
interface AgentProfile {
  id: ProfileId;
  label: string;
  /** Whether senpi's reply-language notes switch applies to this profile. */
  replyLanguageNotes: boolean;
  /**
   * The profile a view names when no session decides it (the CLI's `--profile` default, a share
   * link of a session whose agent has no profiles). Exactly one profile of all agents has it.
   */
  default?: true;
}

/**
 * An option of the agent's pipeline: documented for the UI and the CLI, each with its default. Its
 * value is `PipelineOptions.agentOptions[name]`; the agent's own code reads it with `agentOptionValue`.
 */
interface AgentOption {
  /** Key in `PipelineOptions.agentOptions`, e.g. "stripPlanToolSections". */
  name: string;
  label: string;
  default: boolean | number | string;
  ruleId: string;
  /** Set when the spec marks the rule inferred: the rule id again. */
  inferred?: string;
  description: string;
}

/** One compaction the session records, located for re-simulation. */
export interface RecordedCompactionPoint {
  /** The record the policy re-simulates (pi: compaction entry; opencode: compaction user row; Claude Code: compact boundary; Codex: compacted line). */
  entryId: string;
  /** The last turn answered before it (the simulation happens after this turn). */
  turn: number;
  /** Manual (`/compact`) as the record says; pi and Codex do not record it (false). */
  manual: boolean;
  /** What the record names as kept, compared with the simulated partition. */
  recordedKept: string[];
  /**
   * True when the record says that nothing was kept verbatim (Claude Code before preserved
   * segments), so an empty `recordedKept` is a fact to reproduce, not a missing record.
   */
  keptNothing?: boolean;
}

/** How an agent's recorded compactions are found, compared and rebuilt. */
export interface RecordedCompactionSupport {
  /**
   * Every recorded compaction, in order. Without it, the compaction events of the analysed
   * timeline are used with `recordedKept`.
   */
  points?(session: Session, options: PipelineOptions): RecordedCompactionPoint[];
  /** What the record `entryId` names as kept, and whether it was a manual compaction. */
  recordedKept?(session: Session, entryId: string): { manual: boolean; kept: string[]; keptNothing?: boolean };
  /** What the record itself says about the compaction (hermes: summary, protected head and tail, summarised range), shown with the rebuild's facts. */
  recordedFacts?(session: Session, entryId: string): { label: string; value: string }[];
  /**
   * False when the records do not say whether a compaction was manual (pi, Codex): settings
   * inference then takes a compaction that fired below the usage of an uncompacted turn as manual.
   */
  recordsManual?: boolean;
  /** The simulated counterpart of `recordedKept`; without it, the partition's kept ids. */
  simulatedKept?(result: SimulationResult): string[];
  /** The policy that rebuilds this compaction's summariser request, or null when none does. */
  rebuildPolicy(session: Session, entryId: string): string | null;
  /**
   * Whether the compaction's timeline event shows the policy's rebuild. False where the requests
   * are already in the timeline another way (opencode: as auxiliary requests).
   */
  rebuildInTimeline: boolean;
  /**
   * Why the compaction's row shows no rebuilt summariser request: no policy rebuild when
   * `rebuildPolicy` is null, or where it is shown instead when `rebuildInTimeline` is false.
   */
  noRebuildReason?: string;
  /**
   * The turn to simulate after when re-running a policy at the recorded compaction `entryId`
   * (pi: the last turn answered before the compaction entry on its path).
   */
  replayTurn?(session: Session, options: PipelineOptions, turn: number, entryId: string): number;
  /** The session with its recorded compactions taken out, for a whole-session replay. */
  withoutCompactions?(session: Session): Session;
  /** The agent's own rebuild of a recorded compaction's summariser request(s), outside the simulator (pi, PI-R12). */
  standaloneRebuild?(session: Session, options: CompactionRebuildOptions, entryId: string): CompactionRebuild;
}

/** Provider requests the agent makes besides the main ones (opencode's title and summariser requests). */
interface AuxiliaryRequestSupport {
  /**
   * Rebuilds auxiliary row `index`. `learnt` are the captured requests of the row's purpose
   * (summariser, title), in order: the agent takes from them only the fixed texts its file never
   * holds (a prompt, an instruction), each from the first capture that holds it, the way main
   * requests learn from the first main capture; `taughtBy` names the captures it took any from.
   */
  build(
    session: Session,
    options: PipelineOptions,
    index: number,
    learnt?: readonly LearntCapture[],
  ): { request: BuiltRequest; summariser?: { conversation: string; priorSummary: string | null }; taughtBy?: string[] };
  /** Text the agent adds to such a request without storing it, to highlight in the request. */
  synthesizedTexts(event: AuxiliaryRequestEvent): { text: string; label: string }[];
}

/**
 * Where a family of the agent's rules is written down for users: a rule id starting with `prefix`
 * ("FM-CC", "DH-") is stated on the page `doc` of the repository's docs/. The tooltips that name a
 * rule link it there; the longest matching prefix wins ("DH-INF" before "DH-").
 */
export interface RuleDoc {
  prefix: string;
  doc: string;
}

/** A line of the page shown before a session is open: an agent (or a variant of it) and the files of it we read. */
interface ReadableFiles {
  agent: string;
  files: string;
}

/** What a captured main request teaches beyond the generic facts of its wire shape. */
interface CaptureLearner {
  /** Facts the agent's own request fields teach (Claude Code's beta headers, Codex's instructions). Empty when the body is not of this agent. */
  facts(body: Record<string, unknown>, source: string, api: string): CaptureFact[];
}

/** Captured summariser requests that fill the instruction texts of the agent's standalone compaction rebuild. */
interface SummariserCaptureSupport {
  /** The instruction texts a captured body carries, or null when it is no summariser request of this agent. */
  extract(body: unknown, source: string): CapturedCompactionRequest | null;
  /** Several captures' texts in one value, the first capture of a slot winning. */
  merge(...all: (CompactionInstructions | null | undefined)[]): CompactionInstructions;
  /** The name of each instruction slot, for the UI. */
  slotLabels: Readonly<Record<string, string>>;
}

/** A SQLite database an agent keeps its sessions in (opencode.db, hermes-agent's state.db). */
interface AgentDatabase {
  /** The name users know it by, for messages ("opencode.db"). */
  fileName: string;
  /** True when a database holding these tables is this agent's. */
  recognises(tableNames: readonly string[]): boolean;
  /** One session of the database: `sessionId`, else the agent's default (its newest). Throws with a message fit for a user. */
  read(input: DatabaseReadInput): Session;
  /** True for the one agent whose reader is handed a database no agent recognises, to name what it lacks. */
  readsUnrecognised?: boolean;
}

export interface DatabaseReadInput {
  query: SqlQuery;
  fileName: string;
  /** Whether a `-wal` file was applied, and what applying it reported. */
  walApplied: boolean;
  walWarnings: string[];
  sessionId: string | null;
  /** The agent's side files that go with the database (a "session-store" AgentSideFiles). */
  sideFiles: TextFile[];
  /** The other files given with it: named in a warning, not read. */
  otherFileNames: string[];
}

export interface TextFile {
  name: string;
  text: string;
}

/**
 * The kinds of file an agent keeps beside its sessions (its `sideFiles` says which kind its are):
 * - "session-store": files that hold sessions themselves, beside or instead of a database, read
 *   together as one store (hermes-agent's snapshots, transcripts and request dumps);
 * - "session-notes": files about the sessions that are not sessions, read into a session opened
 *   with them (Gemini CLI's projects.json and logs.json).
 * Only the intake (src/core/intake/) and src/core/session/ tell them apart.
 */
export const SIDE_FILE_KINDS = ["session-store", "session-notes"] as const;
export type SideFileKind = (typeof SIDE_FILE_KINDS)[number];

interface SideFilesCommon {
  /** Names they may have; the content decides (`accepts`). */
  namePattern: RegExp;
  accepts(name: string, text: string): boolean;
}

/** Side files that hold sessions (hermes-agent: snapshots, transcripts, request dumps), read together. */
interface SessionStoreFiles extends SideFilesCommon {
  kind: "session-store";
  /** The folder beside the database that holds them ("sessions"). */
  folderBesideDatabase: string;
  /** The database a home folder holds ("state.db"): a folder given as input is read through it. */
  homeDatabaseName: string;
  /** Names among `folderNames` that go with the side file `name` given alone (its session's request dumps). */
  companions(name: string, folderNames: readonly string[]): string[];
  /** Several side files without a database: one store, session `sessionId` (else the default) shown. */
  read(files: readonly TextFile[], sessionId: string | null): Session;
}

/**
 * Side files that are not sessions (Gemini CLI's projects.json and logs.json). Opened with a
 * session of the agent, they are read into it where they carry facts, and each is named in words;
 * never an error, never a captured request.
 */
interface SessionNoteFiles extends SideFilesCommon {
  kind: "session-notes";
  /** The session with what the files say about it: facts filled in, one note per file (`Session.companionNotes`). */
  attach(session: Session, files: readonly TextFile[]): Session;
  /** What the file is and what to open with it, for the file opened alone. */
  aloneMessage(name: string): string;
}

/** Files an agent keeps beside its sessions or database, of one kind (`SIDE_FILE_KINDS`). */
export type AgentSideFiles = SessionStoreFiles | SessionNoteFiles;

/** What the session picker and the write-ahead-log banner show of a session read from storage. */
export interface StorageSummary {
  /** The session shown. */
  sessionId: string;
  /** Every session of the storage, newest first (sub-agent sessions name their parent). */
  sessions: StorageSessionListing[];
  /** False when the database was opened without its `-wal` file: recent rows may be missing. */
  walApplied: boolean;
  /** The agent whose storage it is ("opencode", "hermes-agent"), for the picker's and banner's texts. */
  agentLabel: string;
  /** What was opened: "opencode.db", "state.db" or "hermes files". */
  storage: string;
}

/** One session of a storage's picker, with the agent's own facts where it has them (hermes-agent: platform, model, lineage, end reason). */
export type StorageSessionListing = SessionListing & {
  source?: string | null;
  model?: string | null;
  lineage?: string | null;
  endReason?: string | null;
};

/** A request the agent itself recorded (hermes-agent's request dumps) compared with the rebuilt one. */
export interface RequestDumpCheck {
  fileName: string;
  /** Why the agent wrote the dump, as it says. */
  reason: string | null;
  /** The matched turn, or null when no turn has this request. */
  turn: number | null;
  equal: boolean;
  /** First differing path (`messages[3].content`), null when equal or unmatched. */
  firstDifference: string | null;
  /** What differs there, for the message: `rebuilt … / dump …`. */
  detail: string | null;
  /** Keys of the dump body the storage does not hold (never compared). */
  notRebuilt: string[];
  /** Parts of the rebuilt body marked not recorded (not compared). */
  notRecorded: string[];
  /** Why the dump matched no turn. */
  unmatched: string | null;
}

/** Requests the agent wrote down itself, checked against the rebuild. */
export interface RequestDumpSupport {
  /** True when the session was read from the agent's storage, where its dumps are found. */
  applies(session: Session): boolean;
  check(session: Session, options: PipelineOptions): RequestDumpCheck[];
  /** One line for a person: the dump's file, its turn and the result. */
  describe(check: RequestDumpCheck): string;
  /** Why there is nothing to compare, for a session of this agent without dumps beside `file`. */
  noDumpsMessage(file: string): string;
}

/** An agent whose sessions are not read (yet), whose compaction policies the simulator runs on any session. */
export interface PolicyOnlyAgent {
  id: string;
  label: string;
  /** The documentation pages of its policies' rule families. */
  ruleDocs: readonly RuleDoc[];
  policies: readonly CompactionPolicy[];
}

/**
 * The record types an agent's session files hold, for the report of what a file holds
 * (src/core/session/recordReport.ts): those read, those skipped on purpose, and the agent
 * versions a session names. A type in neither list is unknown to this version of Contextscope.
 */
export interface RecordCatalog {
  /** Types the reader and the pipeline read. */
  read: readonly string[];
  /** Types the agent writes that no request holds, each with why it is not read. */
  skipped: Readonly<Record<string, string>>;
  /** The agent versions the session names, oldest first as written (Claude Code: each line's `version`). */
  versions(session: Session): string[];
}

/** A program whose files an agent reads, and the newest version of it verified end to end. */
interface VerifiedVersion {
  /** The program's name as users know it ("Claude Code", "senpi"). */
  program: string;
  /** The newest version whose recorded requests the rebuild equals (docs/fidelity.md). */
  version: string;
}

export interface AgentDescriptor {
  /** Written to `Session.formatId` by the agent's readers. */
  id: string;
  label: string;
  /**
   * The newest version verified end to end of each program whose files this agent reads, the
   * agent's own program first (pi's descriptor also names senpi). docs/fidelity.md lists the same
   * values; a file written by a newer version is named as such in the report of what it holds.
   */
  newestVerified?: readonly VerifiedVersion[];
  /** The lines of the empty page: which of this agent's files we read. */
  readableFiles: readonly ReadableFiles[];
  /** The documentation pages of the agent's rule families (its format's rules, its policies' rules). */
  ruleDocs: readonly RuleDoc[];
  /** The agent's file readers, in detection order. */
  readers: readonly FormatReader[];
  pipeline: FormatPipeline;
  /** Characters of one context message by the agent's own size estimate (tokens ≈ chars / 4), for the Messages tab. */
  estimateMessageChars(message: AgentMessage, options: PipelineOptions): number;
  /** Profiles a user can choose between; absent when the agent's own pipeline is the only one. The first is the default. */
  profiles?: readonly AgentProfile[];
  /**
   * The profile of `profiles` the file itself shows it was written with (pi: senpi's own entries),
   * or null when it does not tell: a view of the file then opens with that profile (and the policy
   * that runs it) rather than the first.
   */
  sessionProfile?(session: Session): ProfileId | null;
  /** Compaction policies that belong to this agent (the simulator lists every agent's). */
  policies: readonly CompactionPolicy[];
  /** Recorded compactions; null when the agent records none we can read. */
  recorded: RecordedCompactionSupport | null;
  auxiliary?: AuxiliaryRequestSupport;
  /**
   * Several files of this agent opened together (a session with its sub-agent files, a parent
   * rollout with its children): the main session with the others attached as `threads`, plus the
   * files that belong to none of it. Absent: only the first file is read.
   */
  linkFiles?(sessions: readonly Session[]): { session: Session; unlinked: Session[] };
  /**
   * The session a file is and, for a sub-agent's own file, the session that started it (Codex: a
   * child rollout names its parent thread), so a listing of files puts a child with its parent
   * (the sessions library). Absent: files are not linked by their content.
   */
  fileLineage?(session: Session): { id: string | null; parentId: string | null };
  /**
   * The session an entry's line says it belongs to (Claude Code: each line's `sessionId`; Codex: a
   * `session_meta` line's id), null when the line does not say. `watch` tells by it that the lines
   * appended to a followed file are another session's. Absent: lines do not name their session.
   */
  entrySessionId?(entry: SessionEntry): string | null;
  /**
   * What to drop to see the sub-agents whose messages are in files not opened with the session
   * (threads of origin "elsewhere"), said as the end of "drop … to see them". Absent: the UI says
   * only that their files were not dropped.
   */
  missingThreadFiles?: string;
  /** The record types its files hold (read, skipped on purpose); absent: no report of what a file holds. */
  records?: RecordCatalog;
  /** The shape the pipeline's turn summaries record usage in (CA-21). */
  usageSource: UsageSource;
  /** True when the session file itself holds the system prompt and tool definitions (deepseek-harness's request headers): no capture is needed for them. */
  recordsSystemAndTools?: boolean;
  options: readonly AgentOption[];
  /**
   * Request fields neither the session file nor a capture of the session can supply, each with
   * why (docs/captures.md); a capture diff names a difference there "not derivable". Absent: none.
   */
  notDerivable?: readonly NotDerivableField[];
  /** What a captured main request of this agent teaches (model facts); absent: the generic facts only. */
  captureLearner?: CaptureLearner;
  /** Captured summariser requests that fill the instruction texts of `recorded.standaloneRebuild`. */
  summariserCapture?: SummariserCaptureSupport;
  /** The SQLite database the agent keeps sessions in. */
  database?: AgentDatabase;
  /** Files the agent keeps beside its sessions: sessions of a store, or notes read into a session (`SIDE_FILE_KINDS`). */
  sideFiles?: AgentSideFiles;
  /** The session picker's facts of a session read from the agent's storage; undefined for a session read from one file. */
  storageSummary?(session: Session): StorageSummary | undefined;
  /** Requests the agent recorded itself, checked against the rebuilt ones (shown under the request of their turn). */
  requestDumps?: RequestDumpSupport;
  /**
   * Usage the agent records only per session, never per call (hermes-agent's state.db counters):
   * one total per stored session shown, priced when no call of the session records usage. Absent
   * or empty: the calls' own usage is all there is.
   */
  sessionUsageTotals?(session: Session): SessionUsageTotal[];
  /**
   * A session file's summary in one pass over its lines, without reading it into a session or
   * rebuilding a request (`scan` without `--full`): the provider calls and the usage they recorded,
   * counted the way the full pipeline counts them. Absent: the full pipeline makes the summary.
   */
  summarize?(lines: SummaryLines, fileName: string): SessionSummary;
}

/**
 * Whether a summariser wants a line, asked before the line is decoded: `contains` tells whether
 * the raw line holds an ASCII marker (no line break in it), and `head` gives the line's first
 * characters, at most `length` of them, exact for ASCII (a byte outside it may come out as another
 * character). A summariser that asks this lets a reader of bytes skip the lines no call is on
 * without decoding them.
 */
export type LineWanted = (contains: (marker: string) => boolean, head: (length: number) => string) => boolean;

/**
 * A file's lines for its summary, walked once per call. With `wanted`, only the lines it accepts
 * (asked in file order, once per line): a reader of bytes asks before decoding, a reader of
 * strings asks with `includes` (`wantedLines`).
 */
export type SummaryLines = (wanted?: LineWanted) => Iterable<string>;

/** One provider call a session file records, for a summary. */
export interface SummaryCall {
  model: ModelRef | null;
  /** When it was sent (ISO), for dated prices; null when the file does not say. */
  at: string | null;
  usage: RecordedUsage | null;
  /** The provider's ids of the call (as `TurnSummary.callId`): a call two files hold is counted once. */
  callId?: string;
  /** The provider's own cache verdict the file records for the call (`tools_changed`, `none`, …), null when none. */
  verdict: string | null;
}

/** What one session file holds, by `AgentDescriptor.summarize`. */
export interface SessionSummary {
  /** The main thread's calls (its turns), in file order. */
  main: SummaryCall[];
  /** The main thread's calls that are not turns (Codex's compaction summariser), priced with it. */
  auxiliary?: SummaryCall[];
  /** Each sub-agent thread the file holds, by its id, with its calls. */
  threads: { id: string; calls: SummaryCall[] }[];
  compactions: number;
  /** The folder the session worked in, as the file names it. */
  project: string | null;
  /** The sub-agent the file is of (its entries' agent id, or its name's), null for a main session: its thread replaces the main file's thread of that id. */
  agentId: string | null;
  /** The session the file is and the one whose sub-agent it is, as `fileLineage` would say (the library groups a Codex child rollout with its parent by them); absent: neither is said. */
  lineage?: { id: string | null; parentId: string | null };
}

/** The usage a storage records for one whole session. */
export interface SessionUsageTotal {
  /** The stored session it is of, and where the figures are kept ("state.db"). */
  sessionId: string;
  source: string;
  usage: RecordedUsage;
  model: ModelRef | null;
  /** When the session started (ISO), for dated prices. */
  at: string | null;
}

/** A request field that cannot be rebuilt, as a JSON path (a capture diff's path, "*" = any index). */
export interface NotDerivableField {
  path: string;
  reason: string;
  /** True when a capture of the same session supplies it (then it is "not derivable" only without one). */
  fromCapture?: boolean;
  /**
   * A regular expression (source text): the field is declared only when the rebuilt and the wire
   * strings are equal once the text it matches is taken out of both — a field the file determines
   * but for one part of it. Any other difference in the field stays a difference.
   */
  onlyWithin?: string;
}
