// Where a Claude Code line may keep a large text as bytes (a StoredText) once it is read, and the
// function that turns every other stored text of the line back into a string. The places are the
// texts Claude Code's transcripts are made of and that our code either carries into a request body
// unchanged or reads through `isText` / `textString` / `textUnits` (records.ts, wire.ts, context.ts,
// billing.ts, …); everything else of a line (ids, types, paths, tool inputs, attachments, the
// bookkeeping records) stays a string, so untyped code reading it never meets a stored text.
//
// The places (docs/formats.md, "Texts kept as bytes"):
// - a message (`message` of `user` / `assistant` lines, of `api-request-blob` records, and of the
//   sub-agent messages `agent_progress` lines carry in `data.message.message`): `content` when a
//   string; in its blocks, `text` (type text), `thinking` and `signature` (type thinking), `data`
//   (type redacted_thinking), `source.data` (type image), and of a `tool_result` block its
//   `content` when a string and, in its list, the inner blocks' `text` and image `source.data`;
// - `toolUseResult` (Claude Code's own copy of a tool's output: whole files read or edited,
//   command output; the largest part of users' transcripts) at any depth, except `agentId`, the
//   one field of it our code reads (threads.ts);
// - of `progress` lines: `data.prompt` (agent_progress), `data.output` and `data.fullOutput`
//   (bash_progress), which no code reads.
// Tool-use `input` values stay strings: the input becomes a tool call's `arguments`, which the
// views, the chars/4 estimates and search read as plain JSON (JSON.stringify of them).
// A compaction summary's texts are copied into the store while their line is in memory (they
// would otherwise be read back from the file once per compaction).
import { isObject } from "../../util/is-object";
import { decodeStoredText, isStoredText, rewindStore, type StoredText, type StoreMark, type TextStore } from "../../text/storedText";
import { copyIntoStore, storeKeptTextsAgain, type StoredTextPlace } from "../../text/keptPlaces";

/** Texts made strings again by the walk under way (so that a line left as it was keeps its bytes where they are). */
let decodedCount = 0;

function decoded(text: StoredText): string {
  decodedCount++;
  return decodeStoredText(text);
}

/** Every stored text in `value` decoded to its string (in place; returns the value or its string). */
function decodeAll(value: unknown): unknown {
  if (isStoredText(value)) return decoded(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = decodeAll(value[i]);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) value[key] = decodeAll(value[key]);
  }
  return value;
}

/** A walker looks at one value at a place and returns it, or its string where it may not stay stored. */
type Walker = (value: unknown) => unknown;

/** An object of the line (a stored text is an object too, but no record of the line). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !isStoredText(value);
}

/**
 * Walks the object `record`: a key `keep` allows keeps its stored text; a key with a walker is
 * walked by it; every other value is decoded.
 */
function visit(record: Record<string, unknown>, keep: ReadonlySet<string>, walkers: Readonly<Record<string, Walker>> = {}): Record<string, unknown> {
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (isStoredText(value)) {
      if (!keep.has(key)) record[key] = decoded(value);
    } else if (Object.prototype.hasOwnProperty.call(walkers, key)) record[key] = walkers[key]!(value);
    else record[key] = decodeAll(value);
  }
  return record;
}

/** A walker that visits an object with `keep` and `walkers`, and decodes anything else. */
function objectWith(keep: readonly string[], walkers: Readonly<Record<string, Walker>> = {}): Walker {
  const kept = new Set(keep);
  return (value) => (isRecord(value) ? visit(value, kept, walkers) : decodeAll(value));
}

/** A walker of a list whose items `item` walks; anything else is decoded. */
function listOf(item: Walker): Walker {
  return (value) => {
    if (!Array.isArray(value)) return decodeAll(value);
    for (let i = 0; i < value.length; i++) value[i] = item(value[i]);
    return value;
  };
}

/** The object's `type`, decoded first when it was stored (a type is never a place). */
function typeOf(record: Record<string, unknown>): unknown {
  if (isStoredText(record.type)) record.type = decoded(record.type);
  return record.type;
}

/** A walker choosing by the object's `type` (no walker for the type: decoded). */
function byType(walkers: Readonly<Record<string, Walker>>): Walker {
  return (value) => {
    const type = isRecord(value) ? typeOf(value) : undefined;
    if (typeof type !== "string" || !Object.prototype.hasOwnProperty.call(walkers, type)) return decodeAll(value);
    return walkers[type]!(value);
  };
}

const imageBlock = objectWith([], { source: objectWith(["data"]) });

/** Blocks inside a tool result's content list: texts and images. */
const innerBlock = byType({ text: objectWith(["text"]), image: imageBlock });

/** One block of a message's content. */
const messageBlock = byType({
  text: objectWith(["text"]),
  thinking: objectWith(["thinking", "signature"]),
  redacted_thinking: objectWith(["data"]),
  image: imageBlock,
  tool_result: objectWith(["content"], { content: listOf(innerBlock) }),
});

const message = objectWith(["content"], { content: listOf(messageBlock) });

/** `toolUseResult`: every text kept, but `agentId` at any depth. */
function toolUseResult(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = toolUseResult(value[i]);
  } else if (isRecord(value)) {
    for (const key of Object.keys(value)) value[key] = key === "agentId" ? decodeAll(value[key]) : toolUseResult(value[key]);
  }
  return value;
}

/** A sub-agent line carried inside an `agent_progress` line: its message and its tool's result. */
const carriedLine = objectWith(["toolUseResult"], { message, toolUseResult });

const progressData = objectWith(["prompt", "output", "fullOutput"], { message: carriedLine });

const conversationLine = objectWith(["toolUseResult"], { message, toolUseResult });
const blobLine = objectWith([], { message });
const progressLine = objectWith([], { data: progressData });

type Place = StoredTextPlace;

function storedPlaces(value: unknown, places: Place[]): Place[] {
  if (Array.isArray(value)) {
    value.forEach((item, index) => (isStoredText(item) ? places.push({ holder: value, key: index }) : storedPlaces(item, places)));
  } else if (isRecord(value)) {
    for (const key of Object.keys(value)) {
      if (isStoredText(value[key])) places.push({ holder: value, key });
      else storedPlaces(value[key], places);
    }
  }
  return places;
}

/**
 * A line just parsed from its bytes, its texts stored in `store` after `mark`: every stored text
 * not at a place above becomes a string again (decodeUnlistedTexts), and the bytes of those are
 * given back (the kept texts are stored again from `mark` on). Changes `raw` in place.
 */
export function keepClaudeStoredTexts(raw: Record<string, unknown>, store: TextStore, mark: StoreMark): void {
  if (decodeUnlistedTexts(raw)) {
    const places = storedPlaces(raw, []);
    if (places.length === 0) return rewindStore(store, mark);
    storeKeptTextsAgain(store, mark, places);
  }
  // A compaction's summary opens every later request, and how it starts (longer than the head a
  // text left in the file keeps in the store) is asked of it: copied while its line is in memory,
  // it is not read back from the file, a window at a time, once per compaction.
  if (raw.type === "user" && raw.isCompactSummary === true) copyIntoStore(store, summaryPlaces(raw));
}

/** The places of a compaction summary's texts: its message's content, or its text blocks' texts. */
function summaryPlaces(raw: Record<string, unknown>): Place[] {
  const message = raw.message;
  if (!isRecord(message)) return [];
  if (isStoredText(message.content)) return [{ holder: message, key: "content" }];
  if (!Array.isArray(message.content)) return [];
  const places: Place[] = [];
  for (const block of message.content) if (isRecord(block) && block.type === "text" && isStoredText(block.text)) places.push({ holder: block, key: "text" });
  return places;
}

/**
 * Decodes to strings every stored text of a parsed Claude Code line `raw` that is not at one of
 * the places above (in place), so that only those places may hold a stored text. True when one was decoded.
 */
export function decodeUnlistedTexts(raw: Record<string, unknown>): boolean {
  decodedCount = 0;
  switch (typeOf(raw)) {
    case "user":
    case "assistant":
      conversationLine(raw);
      break;
    case "api-request-blob":
      blobLine(raw);
      break;
    case "progress":
      progressLine(raw);
      break;
    default:
      decodeAll(raw);
  }
  return decodedCount > 0;
}
