// The generic chat message list (FM-RQ-5, FM-RQ-6; hermes-agent entry point FM-HA-1): detection
// against the other formats, lenient reading, turn mapping, what is sent and what is only shown.
import { describe, expect, it } from "vitest";
import { HERMES_SUMMARY_RULE, SENT_MESSAGE_KEYS } from "../../../../src/core/agents/hermes/pipeline";
import { isNotRecorded, type PipelineOptions, type RequestHeader } from "../../../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { extractRequestHeader } from "../../../../src/core/providers";
import { detectFormat, readSessionText, splitTextLines } from "../../../../src/core/session/index";

const OPTIONS: PipelineOptions = { profile: "pi" };

const HERMES_LIST = [
  { role: "user", content: "Fix the bug in parser.py" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"parser.py"}' } }],
  },
  { role: "tool", tool_call_id: "call_1", content: "def parse(): ..." },
  {
    role: "user",
    content: "[CONTEXT COMPACTION] Earlier turns were summarised: the user asked to fix parser.py.",
    _compressed_summary: true,
    _compressed_summary_has_user_turn: true,
  },
  { role: "assistant", content: [{ type: "text", text: "Done." }], reasoning: "internal", _hermes_ts: 12 },
  { role: "user", content: "Thanks" },
];

const detect = (text: string) => detectFormat(splitTextLines(text), "x.json")?.id ?? null;
const read = (value: unknown) => readSessionText(JSON.stringify(value, null, 2), "list.json");

describe("chat message list detection", () => {
  it("recognises arrays of role messages, pretty-printed or compact", () => {
    expect(detect(JSON.stringify(HERMES_LIST))).toBe("chat-messages");
    expect(detect(JSON.stringify(HERMES_LIST, null, 2))).toBe("chat-messages");
    expect(detect(JSON.stringify([{ content: "hi", role: "system" }]))).toBe("chat-messages");
  });

  it("leaves captured request bodies, arrays of bodies, other JSON and the other formats alone", () => {
    expect(detect(JSON.stringify({ model: "gpt-4o", messages: HERMES_LIST }, null, 2))).toBeNull();
    expect(detect(JSON.stringify({ messages: HERMES_LIST, model: "gpt-4o" }))).toBeNull();
    // FM-GEN-1: an object with `messages` is a captured request, even without `model`.
    expect(detect(JSON.stringify({ messages: HERMES_LIST }, null, 2))).toBeNull();
    expect(detect(JSON.stringify([{ model: "gpt-4o", messages: HERMES_LIST }], null, 2))).toBeNull();
    expect(detect(JSON.stringify([{ messages: HERMES_LIST }]))).toBeNull();
    expect(detect(JSON.stringify({ input: [{ role: "user", content: "hi" }] }))).toBeNull();
    expect(detect(JSON.stringify([{ role: "robot", content: "hi" }]))).toBeNull();
    expect(detect(JSON.stringify([1, 2, 3]))).toBeNull();
    expect(detect(JSON.stringify({ info: { id: "ses_1" }, messages: [{ info: { role: "user" }, parts: [] }] }, null, 2))).toBe("opencode");
    expect(detect('{"type":"session","version":3,"id":"a","timestamp":"t","cwd":"/"}')).toBe("pi");
  });
});

describe("chat message list reading", () => {
  it("keeps good elements and reports bad ones by index and line", () => {
    const text = '[\n{"role":"user","content":"a"},\n42,\n{"role":"robot"},\n{"role":"assistant","content":{"x":1}},\n{"role":"assistant","content":"b"}\n]';
    const session = readSessionText(text, "l.json");
    expect(session.formatId).toBe("hermes");
    expect(session.entries.map((entry) => entry.raw.content)).toEqual(["a", "b"]);
    expect(session.entries.map((entry) => entry.line)).toEqual([2, 6]);
    expect(session.entries[1]!.parentId).toBe(session.entries[0]!.id);
    const reasons = session.warnings.map((warning) => `${warning.line}: ${warning.reason}`);
    expect(reasons).toEqual([
      "3: message [1]: not an object (number); skipped",
      '4: message [2]: unknown role "robot"; skipped',
      "5: message [3]: content is neither a string, an array of parts nor null; skipped",
    ]);
  });

  it("keeps the complete messages of a truncated file and says it is truncated", () => {
    const full = JSON.stringify(HERMES_LIST, null, 2);
    const cut = full.slice(0, full.indexOf('"Done."'));
    const session = readSessionText(cut, "cut.json", "chat-messages");
    expect(session.entries).toHaveLength(4);
    expect(session.warnings.some((warning) => /message \[4\]: truncated/.test(warning.reason) && warning.line > 0)).toBe(true);
  });

  it("reads the {messages: [...]} wrapper when the format is chosen", () => {
    const session = readSessionText(JSON.stringify({ note: { a: [1] }, messages: HERMES_LIST }, null, 2), "w.json", "chat-messages");
    expect(session.entries).toHaveLength(HERMES_LIST.length);
    expect(session.warnings).toEqual([]);
    expect(session.entries[0]!.line).toBe(8);
  });

  it("does not throw on foreign input read with the forced format", () => {
    for (const text of ["not json at all", '{"model":"x"}', "[", '[{"role":"user","content":"a"', "null"]) {
      const session = readSessionText(text, "f.json", "chat-messages");
      expect(session.formatId).toBe("hermes");
      expect(session.warnings.length).toBeGreaterThan(0);
    }
    expect(readSessionText('[{"role":"user","content":"a"} ]', "f.json", "chat-messages").warnings).toEqual([]);
  });
});

describe("chat message list turns and requests", () => {
  const session = read(HERMES_LIST);

  it("maps the k-th assistant to request k and adds a next request with the whole list", () => {
    expect(countTurns(session, OPTIONS)).toBe(3);
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.turns.map((turn) => turn.messageCount)).toEqual([1, 4, 6]);
    expect(analysis.turns.map((turn) => turn.entryId)).toEqual(["m1", "m4", "m5"]);
    expect(buildTurnContext(session, OPTIONS, 2, {}).messages).toHaveLength(4);
    expect(() => buildTurnContext(session, OPTIONS, 4, {})).toThrow(RangeError);
    const first = buildTurnRequest(session, OPTIONS, 1).body.messages as unknown[];
    expect(first).toEqual([HERMES_LIST[0]]);
  });

  it("sends each message as written minus unknown keys, and marks model, tools and settings not recorded", () => {
    const request = buildTurnRequest(session, OPTIONS, 3);
    expect(request.api).toBe("openai-completions");
    const sent = request.body.messages as Record<string, unknown>[];
    expect(sent).toHaveLength(6);
    expect(sent[1]).toEqual(HERMES_LIST[1]);
    expect(sent[3]).toEqual({ role: "user", content: HERMES_LIST[3]!.content });
    expect(sent[4]).toEqual({ role: "assistant", content: [{ type: "text", text: "Done." }] });
    for (const message of sent) for (const key of Object.keys(message)) expect(SENT_MESSAGE_KEYS.has(key)).toBe(true);
    expect(isNotRecorded(request.body.model)).toBe(true);
    expect(isNotRecorded(request.body.tools)).toBe(true);
    expect(request.notRecorded).toEqual(expect.arrayContaining(["model", "tools"]));
    // The unknown keys are still shown: the session entry keeps the message whole.
    expect(session.entries[3]!.raw._compressed_summary).toBe(true);
  });

  it("labels the hermes summary and shows it as a compaction before the turn that first sends it", () => {
    const request = buildTurnRequest(session, OPTIONS, 2);
    const rules = request.messages.map((item) => item.provenance.rule);
    expect(rules).toEqual(["entry", "entry", "entry", HERMES_SUMMARY_RULE]);
    expect(request.messages[3]!.provenance.inferred).toBe("FM-RQ-6");
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.timeline.map((item) => (item.kind === "turn" ? `t${item.turn}` : item.kind))).toEqual(["t1", "compaction", "t2", "t3"]);
    expect(analysis.turns.map((turn) => turn.afterCompaction)).toEqual([false, true, false]);
    expect(buildTurnContext(session, OPTIONS, 2, {}).compactionId).toBe("m3");
  });

  it("uses an attached request header's system prompt, tools and settings", () => {
    const capture = {
      model: "gpt-4o",
      messages: [{ role: "system", content: "You are hermes." }, { role: "user", content: "x" }],
      tools: [{ type: "function", function: { name: "read_file", description: "Read", parameters: { type: "object" } } }],
      temperature: 0.2,
    };
    const header: RequestHeader = extractRequestHeader(capture, "capture.json");
    const request = buildTurnRequest(session, { ...OPTIONS, header }, 1);
    expect(request.body.messages).toEqual([{ role: "system", content: "You are hermes." }, HERMES_LIST[0]]);
    expect(request.body.tools).toEqual(capture.tools);
    expect(request.body.temperature).toBe(0.2);
    expect(request.notRecorded).toEqual(["model"]);
    expect(request.messages[0]!.provenance.rule).toBe("header:system");
    // A list that has its own system message keeps it and does not get a second one.
    const withSystem = read([{ role: "system", content: "own" }, ...HERMES_LIST]);
    const sent = buildTurnRequest(withSystem, { ...OPTIONS, header }, 1).body.messages as Record<string, unknown>[];
    expect(sent.filter((message) => message.role === "system")).toEqual([{ role: "system", content: "own" }]);
  });
});
