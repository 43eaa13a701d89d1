// A recorded compaction as the page shows it: what it kept, summarised and added, and its rebuilt
// summariser requests with their instruction slots. Types only.
import type { PipelineOptions } from "../../core/model";
import type { CompactionInstructions } from "../../core/session/index";
import type { TextHighlight } from "../request/protocol";

/** One reconstructed auxiliary (summariser) request of a recorded compaction. */
interface AuxiliaryRequestView {
  label: string;
  jsonText: string;
  highlights: TextHighlight[];
}

/** One instruction slot of pi's summariser (PI-K20 … PI-K22, PI-K27) and whether it is filled. */
export interface InstructionSlotView {
  slot: string;
  label: string;
  /** Used by one of this compaction's requests. */
  used: boolean;
  /** Filled from an attached capture (else the request shows a not-recorded marker). */
  filled: boolean;
}

/** A context message in a compaction's outcome (estimated tokens, chars/4 of the agent's estimate). */
export interface OutcomeMessage {
  index: number;
  role: string;
  entryId: string | null;
  tokens: number;
  preview: string;
}

/** What a recorded compaction did: the request before it against the next one (src/features/compaction/compactionOutcomeModel.ts). */
export interface CompactionOutcomeView {
  /** The last turn answered before the compaction, and the first after it (null: none in the file). */
  beforeTurn: number | null;
  afterTurn: number | null;
  /** Messages of the request before that the request after still sends. */
  kept: OutcomeMessage[];
  /** Messages of the request before that the request after no longer sends (summarised or dropped). */
  summarised: OutcomeMessage[];
  /** Messages the request after sends that the one before did not: the summary, the next prompt. */
  added: OutcomeMessage[];
  /**
   * The tokens before the compaction as the agent recorded them: the figure its trigger compared
   * with its threshold (the timeline row and Details show the same); null when not recorded.
   */
  recordedBefore: number | null;
  /** Estimated tokens of the request's messages before, and of the next request's. */
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The trigger in words (manual, or the usage against the threshold of the agent's policy). */
  trigger: string | null;
  /** The same in a few words (Details). */
  triggerShort: string | null;
  /** Whether it was manual: true/false as the file says, null where the file does not say. */
  manual: boolean | null;
  /** Why a part is missing (no turn before or after it in the file). */
  note: string | null;
}

export interface CompactionRequestsResult {
  /** What the compaction kept and summarised (every agent). */
  outcome?: CompactionOutcomeView | null;
  /** When unavailable: why no summariser request is shown here, or where it is shown instead, in words. */
  reason?: string;
  /** False when no summariser reconstruction exists for this session's format. */
  available: boolean;
  entryId: string;
  requests: AuxiliaryRequestView[];
  /** pi's serializeConversation transcript of the summarised messages (PI-K23). */
  serializedConversation?: string;
  /** The split turn's prefix transcript, when the cut split a turn (PI-K27). */
  turnPrefixConversation?: string;
  /** The previous compaction's summary carried into the update prompt, or null. */
  previousSummary?: string | null;
  slots?: InstructionSlotView[];
  /** Names of the captures the slots were filled from. */
  instructionSources?: string[];
  /** Labelled facts of the reconstruction (cut point, split turn, tokens before, …). */
  facts: { label: string; value: string }[];
  /** Differences between the recorded entry and pi's rules, and unrecorded parts. */
  lints: string[];
}

export interface CompactionMethods {
  compactionRequests: {
    params: { options: PipelineOptions; entryId: string; instructions?: CompactionInstructions | null };
    result: CompactionRequestsResult;
  };
}
