// The Conversation tab in the pipeline worker: the selected turn's request as readable messages.
import { buildTurnRequest } from "../../core/session/pipeline";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import { conversationView } from "./conversationModel";
import type { ConversationMethods } from "./protocol";

export type { ConversationMethods } from "./protocol";

export function conversationHandlers(host: SessionHost): HandlerTable<ConversationMethods> {
  const { ofSession } = handlerKit(host);
  return {
    turnConversation: ofSession({ stage: "building the conversation of a turn" }, ({ options, turn }, { target }) => conversationView(turn, buildTurnRequest(target, options, turn))),
  };
}
