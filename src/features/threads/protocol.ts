// Links between a sub-agent thread and the tool call that started it. Types only.
import type { PipelineOptions } from "../../core/model";

/** A tool call of the message shown that started a sub-agent thread (Messages tab link). */
export interface ThreadCallLink {
  threadId: string;
  label: string;
  toolCallId: string;
}

/** Where a thread's spawning tool call is first sent in its parent thread. */
export interface SpawnCallLocation {
  /** The parent thread (null: the main thread). */
  threadId: string | null;
  turn: number;
  /** Index of the message holding the call in that turn's request; null when no request holds it. */
  messageIndex: number | null;
  toolCallId: string;
}

export interface ThreadsMethods {
  /** Where the tool call that started sub-agent thread `threadId` is first sent in its parent thread. */
  spawnCall: { params: { options: PipelineOptions; threadId: string }; result: SpawnCallLocation | null };
}
