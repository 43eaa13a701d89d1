// The Conversation tab's call: the messages of a turn's request as readable text. Types only.
import type { PipelineOptions } from "../../core/model";
import type { ConversationResult } from "./conversationModel";

export type { ConversationBlock, ConversationMessage, ConversationResult } from "./conversationModel";

export interface ConversationMethods {
  /** The messages of a turn's request as readable text, for the Conversation tab. */
  turnConversation: { params: { options: PipelineOptions; turn: number }; result: ConversationResult };
}
