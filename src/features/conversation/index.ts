// The conversation feature's page-side surface: the Conversation and Messages views.
export { ConversationView } from "./ConversationView";
export { MessagesTable } from "./MessagesTable";
