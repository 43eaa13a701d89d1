// The chat messages of a Kilo main request: opencode's conversion of the stored messages in scope
// (the same rows, the same Chat Completions shape), with Kilo's `<environment_details>` text part
// appended to every user message (./environment.ts). A user message's content is then always a list
// of text parts, the stored ones first. An assistant message that only calls tools has the content
// `null` where opencode 1.x sends "" (Kilo's newer SDK, as recorded).
import type { Session } from "../../model";
import { convertRecord, modelScope, type OpencodeMessageRecord } from "../opencode/index";
import type { ChatMessage } from "../opencode/convert";
import { opencodeIndex } from "../opencode/turns";
import { environmentDetails, recordedFolders, type KiloFolders } from "./environment";
import { kiloHeaderOf } from "./session";

type ChatContent = Extract<ChatMessage, { role: "user" }>["content"];
type AssistantChat = Extract<ChatMessage, { role: "assistant" }>;

/** A chat message as Kilo sends it: opencode's, or a tool-calling assistant message without text. */
export type KiloChatMessage = ChatMessage | (Omit<AssistantChat, "content"> & { content: null });

const folderCache = new WeakMap<object, Map<string, KiloFolders>>();

/** Per user message id: the folders its answer (an assistant message whose parentID is it) records. */
function answerFolders(session: Session, records: readonly OpencodeMessageRecord[]): Map<string, KiloFolders> {
  const cached = folderCache.get(session.entries);
  if (cached) return cached;
  const folders = new Map<string, KiloFolders>();
  for (const record of records) {
    const parent = record.info.parentID;
    const recorded = record.info.role === "assistant" ? recordedFolders(record) : null;
    if (recorded && typeof parent === "string" && !folders.has(parent)) folders.set(parent, recorded);
  }
  folderCache.set(session.entries, folders);
  return folders;
}

/** The folders of a user message no answer records: the session's directory, the root folder "/" (as Kilo names a folder outside a repository). */
function fallbackFolders(session: Session): KiloFolders {
  return { cwd: kiloHeaderOf(session)?.cwd ?? "", root: "/" };
}

function withEnvironment(content: ChatContent, details: string): ChatContent {
  const parts = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
  return [...parts, { type: "text", text: details }];
}

/** The chat messages one stored record sends in a Kilo request. */
function kiloChat(session: Session, record: OpencodeMessageRecord, folders: Map<string, KiloFolders>): KiloChatMessage[] {
  const chat = convertRecord(record).chat;
  if (record.info.role !== "user") {
    return chat.map((message) => (message.role === "assistant" && message.tool_calls && message.content === "" ? { ...message, content: null } : message));
  }
  const details = environmentDetails(record.info.time?.created, folders.get(record.info.id) ?? fallbackFolders(session));
  if (details === null) return chat;
  return chat.map((message) => (message.role === "user" ? { role: "user", content: withEnvironment(message.content, details) } : message));
}

/** The chat messages (without the system message) of main request `turn`, as Kilo sent them. */
export function kiloTurnChatMessages(session: Session, turn: number): KiloChatMessage[] {
  const index = opencodeIndex(session);
  const answer = index.answers[turn - 1];
  if (answer === undefined) throw new RangeError(`turn ${turn} does not exist: the session has ${index.answers.length} turns`);
  const folders = answerFolders(session, index.records);
  return modelScope(index.records, answer).indexes.flatMap((i) => kiloChat(session, index.records[i] as OpencodeMessageRecord, folders));
}
