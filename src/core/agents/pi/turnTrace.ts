// What the analysis walk of a pi-profile branch (turns.ts) already knows about every turn's context:
// the converted messages, dropped messages and warnings as they grew, and where each turn stood in
// them. The request walk (turnContexts.ts) follows this trace instead of projecting and converting
// the same branch a second time: on a long session of short turns the second projection was a
// fixed share of the whole command. Only the pi profile without notes: senpi's steps read the
// projected list of every turn, which the trace does not keep.
import type { ContextMessage, DroppedMessage, ModelRef, ReaderWarning } from "../../model";
import type { ConvertedMessage } from "./convert";

/**
 * Where one turn stood. The lists are the trace's (they only grow at their end until a reset starts
 * new ones): the turn's context is the first `messageCount` of `messages`, and so on.
 */
export interface TurnMark {
  messages: readonly ContextMessage[];
  messageCount: number;
  dropped: readonly DroppedMessage[];
  droppedCount: number;
  warnings: readonly ReaderWarning[];
  warningCount: number;
  /** Length of the projection's own warning list (it never restarts). */
  projectionWarningCount: number;
  /** The projection's model, thinking level and compaction in force before the answer. */
  model: ModelRef | null;
  thinkingLevel: string;
  compactionId: string | null;
}

/** The projection state a mark copies (PathProjector's fields of the same names). */
export interface ProjectionState {
  readonly warnings: readonly ReaderWarning[];
  readonly model: ModelRef | null;
  readonly thinkingLevel: string;
  readonly compactionId: string | null;
}

export class ConversionTrace {
  messages: ContextMessage[] = [];
  dropped: DroppedMessage[] = [];
  warnings: ReaderWarning[] = [];
  /** One mark per turn walked, in order. */
  readonly marks: TurnMark[] = [];

  /** @param projectionWarnings the projection's warning list, read by `iteratePiTurnContexts`. */
  constructor(readonly projectionWarnings: readonly ReaderWarning[]) {}

  /** A projected message appended, as convertProjected converted it (`line`: its entry's). */
  append(converted: ConvertedMessage, line: number): void {
    if (converted.context) this.messages.push(converted.context);
    if (converted.dropped) this.dropped.push(converted.dropped);
    if (converted.warning) this.warnings.push({ line, reason: converted.warning });
  }

  /** The projected list restarted (compaction): new lists, the old ones stay as the marks saw them. */
  reset(): void {
    this.messages = [];
    this.dropped = [];
    this.warnings = [];
  }

  /** The turn answered next has the context as it stands. */
  mark(projection: ProjectionState): void {
    this.marks.push({
      messages: this.messages,
      messageCount: this.messages.length,
      dropped: this.dropped,
      droppedCount: this.dropped.length,
      warnings: this.warnings,
      warningCount: this.warnings.length,
      projectionWarningCount: projection.warnings.length,
      model: projection.model,
      thinkingLevel: projection.thinkingLevel,
      compactionId: projection.compactionId,
    });
  }
}
