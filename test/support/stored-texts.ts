// Tests' way to a pi/senpi session that holds stored texts: a session read the ordinary way (every
// text a string) is copied with each text at the places the pi reader keeps as bytes (message
// content strings and text/thinking/image blocks, bash output, summaries; see docs/architecture.md
// "Texts kept as bytes") replaced by a StoredText, made with the real store code: the bytes of
// the text's JSON rendering (quotes left out) copied into a new TextStore and measured there.
// Comparing every output of the copy with the original's shows that no stage mistakes a stored
// text for something else, drops it, or prints it as an object.
import type { Session, SessionEntry } from "../../src/core/model";
import { LARGE_TEXT_BYTES } from "../../src/core/text/largeLiterals";
import { measureLiteral } from "../../src/core/text/measureLiteral";
import { bytesAt, createTextStore, storeBytes, type StoredText, type TextStore } from "../../src/core/text/storedText";
import type { Text } from "../../src/core/text/text";

type Json = Record<string, unknown>;

export interface StoredSession {
  session: Session;
  store: TextStore;
  /** How many texts were stored. */
  stored: number;
}

const encoder = new TextEncoder();

/** A stored text holding exactly these escaped bytes (a JSON string literal's inside). */
export function storeLiteralBytes(store: TextStore, literal: Uint8Array): StoredText {
  const place = storeBytes(store, literal, 0, literal.length);
  const facts = measureLiteral(bytesAt(store, place), 0, place.byteLength);
  if (facts === null) throw new Error("not a JSON string literal's inside");
  return { kind: "stored-text", store: store.id, ...place, ...facts };
}

class Storer {
  stored = 0;
  constructor(
    readonly store: TextStore,
    readonly threshold: number,
  ) {}

  text(value: unknown): unknown {
    if (typeof value !== "string") return value;
    const literal = encoder.encode(JSON.stringify(value).slice(1, -1));
    if (literal.length < this.threshold) return value;
    this.stored++;
    return storeLiteralBytes(this.store, literal) satisfies Text;
  }

  /** A content list's text/thinking/image blocks, or a content string. */
  content(content: unknown, withThinking: boolean): unknown {
    if (typeof content === "string") return this.text(content);
    if (!Array.isArray(content)) return content;
    return content.map((block: unknown) => {
      if (typeof block !== "object" || block === null) return block;
      const b = { ...(block as Json) };
      if (b.type === "text") b.text = this.text(b.text);
      else if (b.type === "image") b.data = this.text(b.data);
      else if (b.type === "thinking" && withThinking) b.thinking = this.text(b.thinking);
      return b;
    });
  }

  raw(entry: SessionEntry): Json {
    const raw = structuredClone(entry.raw);
    if (entry.type === "message" && typeof raw.message === "object" && raw.message !== null) {
      const message = raw.message as Json;
      if (message.role === "user" || message.role === "custom") message.content = this.content(message.content, true);
      else if (Array.isArray(message.content)) message.content = this.content(message.content, true);
      if (message.role === "bashExecution") message.output = this.text(message.output);
      if (message.role === "branchSummary" || message.role === "compactionSummary") message.summary = this.text(message.summary);
    } else if (entry.type === "compaction" || entry.type === "branch_summary") {
      raw.summary = this.text(raw.summary);
    } else if (entry.type === "custom_message") {
      raw.content = this.content(raw.content, false);
    }
    return raw;
  }
}

/**
 * The session with every text of at least `threshold` escaped bytes at the pi reader's places
 * stored in a new text store (`threshold` 1 stores nearly every text). The original is untouched.
 */
export function storeSessionTexts(session: Session, threshold = LARGE_TEXT_BYTES): StoredSession {
  const storer = new Storer(createTextStore(), threshold);
  const entries = session.entries.map((entry) => ({ ...entry, raw: storer.raw(entry) }));
  return { session: { ...session, entries }, store: storer.store, stored: storer.stored };
}
