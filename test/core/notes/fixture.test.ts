// Spec rows #27 … #31 on fixture pi/print-openai-autocompact: the recorded request bodies (pi, no
// notes) are turned back into converted contexts, the carrier is applied to the compaction
// summary from the session's user messages, and the note step runs per request. This stands in
// for the full senpi pipeline (H1), which is tested end to end there.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  applyCompactionCarrier,
  compactionCarrier,
  createReplyLanguageStep,
  readLanguage,
  resolveOptions,
  type UserProseMessage,
} from "../../../src/core/notes";
import type { ContextMessage } from "../../../src/core/model";
import { fixtureCase } from "../../support/fixtures";
import { assistant, COMPACTION_PREFIX, COMPACTION_SUFFIX, textOf, tool } from "./helpers";

interface Entry {
  type: string;
  id: string;
  summary?: string;
  message?: { role: string; content: unknown; toolCallId?: string };
}
interface WireMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

function load() {
  const fixture = fixtureCase("pi/print-openai-autocompact");
  const entries = fs
    .readFileSync(fixture.sessionPath, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Entry);
  const requests = new Map<number, WireMessage[]>();
  for (let i = 1; i <= 17; i++) {
    const body = fixture.request(i) as { messages: WireMessage[] };
    requests.set(i, body.messages);
  }
  return { entries, requests };
}

const wireText = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? "").join("") : "";

const entryText = (e: Entry): string => wireText(e.message?.content);

/** Recorded request → converted context (as the senpi pipeline would hand it to the note step). */
function toContext(wire: WireMessage[], entries: Entry[]): ContextMessage[] {
  const out: ContextMessage[] = [];
  for (const m of wire) {
    if (m.role === "system") continue;
    const text = wireText(m.content);
    if (m.role === "user") {
      const compaction = entries.find((e) => e.type === "compaction" && text === COMPACTION_PREFIX + e.summary + COMPACTION_SUFFIX);
      if (compaction) {
        out.push({ message: { role: "user", content: [{ type: "text", text }] }, provenance: { rule: "wrap:compaction-summary", entryId: compaction.id } });
        continue;
      }
      const entry = entries.find((e) => e.message?.role === "user" && entryText(e) === text);
      out.push({ message: { role: "user", content: [{ type: "text", text }] }, provenance: { rule: "entry", entryId: entry?.id ?? null } });
    } else if (m.role === "assistant") {
      out.push({ message: { role: "assistant", content: text ? [{ type: "text", text }] : [] }, provenance: { rule: "entry", entryId: null } });
    } else if (m.role === "tool") {
      const entry = entries.find((e) => e.message?.role === "toolResult" && e.message.toolCallId === m.tool_call_id);
      out.push({
        message: { role: "toolResult", toolCallId: m.tool_call_id ?? "", toolName: "x", content: [{ type: "text", text }], isError: false },
        provenance: { rule: "entry", entryId: entry?.id ?? null },
      });
    }
  }
  return out;
}

/** The projection's part (RL-22): carrier on the newest summary from the user messages before it. */
function withCarrier(context: ContextMessage[], entries: Entry[], options: Parameters<typeof compactionCarrier>[1]): ContextMessage[] {
  return context.map((cm) => {
    if (cm.provenance.rule !== "wrap:compaction-summary") return cm;
    const at = entries.findIndex((e) => e.id === cm.provenance.entryId);
    const users: UserProseMessage[] = entries
      .slice(0, at)
      .filter((e) => e.type === "message" && e.message?.role === "user")
      .map((e) => ({ entryId: e.id, message: { role: "user", content: [{ type: "text", text: entryText(e) }] } }));
    const carrier = compactionCarrier(users, options);
    return carrier ? applyCompactionCarrier(cm, carrier, options) : cm;
  });
}

function notesOf(out: ContextMessage[]) {
  return out.flatMap((m, i) =>
    m.provenance.rule === "note:reply-language" ? [{ index: i, text: textOf(m.message), after: out[i - 1]?.provenance.entryId, info: m.provenance.note }] : [],
  );
}

describe("fixture pi/print-openai-autocompact with senpi notes on", () => {
  const { entries, requests } = load();
  const build = (n: number, options?: Parameters<typeof compactionCarrier>[1]) => {
    const step = createReplyLanguageStep(options);
    return step(withCarrier(toContext(requests.get(n) ?? [], entries), entries, options));
  };
  const MAIN = [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 15, 16, 17];

  it("#27 prompt 1: runs of 346 and 3494 chars stay below 4000 (no note)", () => {
    for (const n of [2, 3, 4, 5]) expect(notesOf(build(n))).toEqual([]);
  });

  it("#27 with thresholdChars 3800: a Korean note after the README result from request 003 on, prefix-stable", () => {
    const options = { thresholdChars: 3800 };
    expect(notesOf(build(2, options))).toEqual([]);
    for (const n of [3, 4, 5, 6, 7, 8]) {
      const notes = notesOf(build(n, options)).filter((x) => x.after === "ad57cdda");
      expect(notes.map((x) => x.text)).toEqual(["Reply language: Korean"]);
      expect(notes[0]?.info).toMatchObject({ language: "Korean", source: "written", fromEntryId: "89290492", builtUpChars: 3840 });
    }
  });

  it("#28 prompt 3: 5022 chars after the request in prompt 2 → requested English after the architecture result in 006-008", () => {
    for (const n of [6, 7, 8]) {
      const notes = notesOf(build(n));
      expect(notes.map((x) => [x.after, x.text])).toEqual([["3e8bbdad", "Reply language: English (the user asked for it)"]]);
      expect(notes[0]?.info).toMatchObject({ source: "explicit-request", fromEntryId: "90765bf3", builtUpChars: 5022 });
    }
    expect(notesOf(build(5))).toEqual([]);
  });

  it("#29 after compaction 1 (010-013): the summary carries the requested English; the prompt-3 note stays", () => {
    for (const n of [10, 11, 12, 13]) {
      const out = build(n);
      const s = out[0] as ContextMessage;
      expect(s.provenance.rule).toBe("wrap:compaction-summary");
      expect(textOf(s.message).endsWith("\n</summary>\n\nReply language: English (the user asked for it)")).toBe(true);
      expect(s.provenance.note).toMatchObject({ language: "English", source: "explicit-request", fromEntryId: "90765bf3" });
      expect(out[1]?.message.role).toBe("user"); // no separate note after the summary
      expect(out[1]?.provenance.rule).toBe("entry");
      const notes = notesOf(out);
      expect(notes.map((x) => [x.after, x.text])).toEqual([["3e8bbdad", "Reply language: English (the user asked for it)"]]);
      expect(notes[0]?.info).toMatchObject({ carriedByEntryId: "d031100d", builtUpChars: 5022 });
    }
  });

  it("#30 after compaction 2 (015-017): the summary carries English; no other notes", () => {
    for (const n of [15, 16, 17]) {
      const out = build(n);
      expect(textOf((out[0] as ContextMessage).message).endsWith("\n</summary>\n\nReply language: English (the user asked for it)")).toBe(true);
      expect((out[0] as ContextMessage).provenance.entryId).toBe("2ca2e615");
      expect(notesOf(out)).toEqual([]);
    }
  });

  it("#31 prompt 8 reads Korean but the effective language stays English", () => {
    const prompt8 = entries.find((e) => e.id === "c7464afa") as Entry;
    expect(readLanguage(entryText(prompt8), resolveOptions())).toMatchObject({ kind: "named", name: "Korean" });
    // A long run after prompt 8 (appended to request 016) would carry the requested English.
    const context = withCarrier(toContext(requests.get(16) ?? [], entries), entries, undefined);
    const out = createReplyLanguageStep()([...context, assistant(), tool(5000)]);
    expect(notesOf(out).map((x) => x.text)).toEqual(["Reply language: English (the user asked for it)"]);
    // With requestScope latestMessage it would be Korean.
    const latest = createReplyLanguageStep({ requestScope: "latestMessage" })([...context, assistant(), tool(5000)]);
    expect(notesOf(latest).map((x) => x.text)).toEqual(["Reply language: Korean"]);
  });

  it("RL-28: within each compaction window, every request is a prefix of the next with notes on", () => {
    for (const options of [undefined, { thresholdChars: 3800 }]) {
      const serialized = MAIN.map((n) => build(n, options).map((m) => JSON.stringify(m.message)));
      const windows = [MAIN.filter((n) => n < 9), MAIN.filter((n) => n > 9 && n < 14), MAIN.filter((n) => n > 14)];
      for (const window of windows) {
        for (let k = 1; k < window.length; k++) {
          const before = serialized[MAIN.indexOf(window[k - 1] as number)] as string[];
          const after = serialized[MAIN.indexOf(window[k] as number)] as string[];
          expect(after.slice(0, before.length)).toEqual(before);
        }
      }
    }
  });
});
