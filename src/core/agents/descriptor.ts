// What one agent brings to Contextscope, in one value: its readers, its context pipeline, its
// pipeline profiles, its compaction policies, how its recorded compactions are located and
// rebuilt, how its usage records are normalised, and its options. Each folder under
// src/core/agents/ exports one AgentDescriptor; agents/registry.ts lists them. Code outside an
// agent's folder asks the descriptor instead of comparing agent or policy ids.
import type { AgentId } from "./ids";
import type { CompactionRebuild, CompactionRebuildOptions } from "./pi/compaction/rebuild";
import type { UsageSource } from "../caching/usage";
import type { AuxiliaryRequestEvent, BuiltRequest, PipelineOptions, ProfileId, Session } from "../model";
import type { FormatPipeline } from "../pipeline/types";
import type { FormatReader } from "../readers/types";
import type { CompactionPolicy, SimulationResult } from "../simulate/types";

/** A pipeline profile an agent's sessions can be rebuilt with (pi: pi or senpi). */
export interface AgentProfile {
  id: ProfileId;
  label: string;
  /** Whether senpi's reply-language notes switch applies to this profile. */
  replyLanguageNotes: boolean;
}

/** An option of the agent's pipeline: documented for the UI and the CLI, each with its default. */
export interface AgentOption {
  /** Path in PipelineOptions, e.g. "codex.stripPlanToolSections". */
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
  /** Why there is no policy rebuild when `rebuildPolicy` is null. */
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
export interface AuxiliaryRequestSupport {
  build(session: Session, options: PipelineOptions, index: number): { request: BuiltRequest; summariser?: { conversation: string; priorSummary: string | null } };
  /** Text the agent adds to such a request without storing it, to highlight in the request. */
  synthesizedTexts(event: AuxiliaryRequestEvent): { text: string; label: string }[];
}

export interface AgentDescriptor {
  /** Written to `Session.formatId` by the agent's readers. */
  id: AgentId;
  label: string;
  /** The agent's file readers, in detection order. */
  readers: readonly FormatReader[];
  pipeline: FormatPipeline;
  /** Profiles a user can choose between; empty when the agent's own pipeline is the only one. */
  profiles: readonly AgentProfile[];
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
  /** The shape the pipeline's turn summaries record usage in (CA-21). */
  usageSource: UsageSource;
  options: readonly AgentOption[];
  /**
   * Request fields neither the session file nor a capture of the session can supply, each with
   * why (docs/captures.md); a capture diff names a difference there "not derivable". Absent: none.
   */
  notDerivable?: readonly NotDerivableField[];
}

/** A request field that cannot be rebuilt, as a JSON path (a capture diff's path, "*" = any index). */
export interface NotDerivableField {
  path: string;
  reason: string;
  /** True when a capture of the same session supplies it (then it is "not derivable" only without one). */
  fromCapture?: boolean;
}
