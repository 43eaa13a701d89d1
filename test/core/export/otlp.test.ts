// The session as trace data: every chat span's tokens follow the GenAI convention (input counts
// the cached tokens: pi's `input` + `cacheRead` + `cacheWrite` from the raw line), the ids are
// the same on every export, compaction marks the calls after it, and the opt-in request contents
// are redacted with the project's redaction.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sessionTrace, type TraceSpan } from "../../../src/core/export/otlp/index";
import { datasetPriceTable } from "../../../src/core/pricing/dataset";
import { readSessionText } from "../../../src/core/session/index";
import { SECRET_EXAMPLES, seededSessionText } from "../../support/secret-examples";
import { describeShared } from "../../support/fixtures";

const SAMPLE = "public/samples/pi-english-compaction.jsonl";
const text = readFileSync(SAMPLE, "utf8");
const session = () => readSessionText(text, "pi-english-compaction.jsonl");
const trace = (contents: { redact: boolean; unmasked: string[] } | null = null, source = session()) =>
  sessionTrace(source, { pipeline: { profile: "pi" }, prices: datasetPriceTable(), contents });
const chats = (spans: TraceSpan[]) => spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");

/** The raw assistant lines' usage by the line's timestamp (epoch ms), read without the app's reader. */
function rawUsageByTime(): Map<number, { input: number; output: number; cacheRead: number; cacheWrite: number }> {
  const byTime = new Map<number, { input: number; output: number; cacheRead: number; cacheWrite: number }>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { type: string; timestamp: string; message?: { role: string; usage?: { input: number; output: number; cacheRead: number; cacheWrite: number } } };
    if (entry.type === "message" && entry.message?.role === "assistant" && entry.message.usage) byTime.set(Date.parse(entry.timestamp), entry.message.usage);
  }
  return byTime;
}

describe("sessionTrace", () => {
  it("each chat span's tokens are the raw line's usage, input counting cache reads and writes", () => {
    const raw = rawUsageByTime();
    const spans = chats(trace().spans);
    expect(spans.length).toBe(34);
    const matched = new Set<number>();
    let cached = 0;
    for (const span of spans) {
      const usage = raw.get(span.endMs);
      expect(usage, `a raw assistant line at ${span.endMs}`).toBeDefined();
      matched.add(span.endMs);
      expect(span.attributes["gen_ai.usage.input_tokens"]).toBe(usage!.input + usage!.cacheRead + usage!.cacheWrite);
      expect(span.attributes["gen_ai.usage.output_tokens"]).toBe(usage!.output);
      expect(span.attributes["gen_ai.usage.cache_read.input_tokens"]).toBe(usage!.cacheRead);
      expect(span.attributes["gen_ai.usage.cache_write.input_tokens"]).toBe(usage!.cacheWrite);
      if (usage!.cacheRead > 0) cached++;
    }
    expect(matched.size).toBe(spans.length);
    expect(cached).toBeGreaterThan(10);
  });

  it("the same session gives the same ids; spans nest under the agent span; compaction marks the calls after it only", () => {
    const first = trace();
    const again = trace();
    expect(again.traceId).toBe(first.traceId);
    expect(again.spans.map((span) => span.spanId)).toEqual(first.spans.map((span) => span.spanId));
    expect(new Set(first.spans.map((span) => span.spanId)).size).toBe(first.spans.length);
    const agent = first.spans[0]!;
    expect(agent.attributes["gen_ai.operation.name"]).toBe("invoke_agent");
    expect(first.spans.slice(1).every((span) => span.parentSpanId === agent.spanId)).toBe(true);
    const marks = chats(first.spans).map((span) => span.attributes["gen_ai.conversation.compacted"] === true);
    const firstMarked = marks.indexOf(true);
    expect(firstMarked).toBeGreaterThan(0);
    expect(marks.slice(firstMarked).every(Boolean)).toBe(true);
    expect(first.spans.some((span) => span.name.startsWith("execute_tool "))).toBe(true);
    // The break after the compaction is ours to report, with where it is and what it cost.
    const broken = chats(first.spans).find((span) => span.attributes["contextscope.break.cause"] !== undefined)!;
    expect(typeof broken.attributes["contextscope.break.offset_bytes"]).toBe("number");
    expect(typeof broken.attributes["contextscope.cost.dollars"]).toBe("number");
  });

  it("request contents are left out unless asked; asked, they are redacted unless redaction is off", () => {
    expect(chats(trace().spans).some((span) => "gen_ai.input.messages" in span.attributes)).toBe(false);
    const seeded = readSessionText(seededSessionText(), "seeded.jsonl");
    const redacted = trace({ redact: true, unmasked: [] }, seeded);
    const texts = chats(redacted.spans).map((span) => String(span.attributes["gen_ai.input.messages"]));
    expect(texts.length).toBeGreaterThan(0);
    expect(JSON.parse(texts[0]!)[0].role).toBe("user");
    expect(redacted.findings.length).toBeGreaterThan(0);
    for (const example of SECRET_EXAMPLES) expect(texts.join("\n")).not.toContain(JSON.stringify(example.secret).slice(1, -1));
    const plain = trace({ redact: false, unmasked: [] }, seeded);
    expect(plain.findings).toEqual([]);
    expect(chats(plain.spans).map((span) => String(span.attributes["gen_ai.input.messages"])).join("\n")).toContain(SECRET_EXAMPLES[1]!.secret);
  });
});

describeShared("calls beside the turns", (shared) => {
  const recording = shared.case("opencode/run-autocompact");
  /** The recorder's own classification of each captured request (`requests/NNN.meta.json`): which were summariser calls. */
  const summaryNumbers = readdirSync(recording.path("requests"))
    .filter((name) => /^\d{3}\.meta\.json$/.test(name))
    .sort()
    .filter((name) => (JSON.parse(readFileSync(recording.path(`requests/${name}`), "utf8")) as { kind?: string }).kind === "summary")
    .map((name) => name.slice(0, 3));

  it("each summariser call is a chat span whose tokens are the provider's own usage in its response stream", () => {
    expect(summaryNumbers.length).toBe(2);
    const spans = sessionTrace(recording.session, { pipeline: { profile: "pi" }, prices: datasetPriceTable(), contents: null }).spans;
    const summaries = spans.filter((span) => span.attributes["contextscope.call.purpose"] === "summary");
    expect(summaries).toHaveLength(summaryNumbers.length);
    summaryNumbers.forEach((number, i) => {
      const stream = readFileSync(recording.path(`responses/${number}.txt`), "utf8");
      const usage = [...stream.matchAll(/"usage":(\{[^}]*\})/g)].map((m) => JSON.parse(m[1]!) as { prompt_tokens: number; completion_tokens: number }).at(-1)!;
      expect(summaries[i]!.kind).toBe("client");
      expect(summaries[i]!.attributes["gen_ai.usage.input_tokens"], `request ${number}`).toBe(usage.prompt_tokens);
      expect(summaries[i]!.attributes["gen_ai.usage.output_tokens"], `request ${number}`).toBe(usage.completion_tokens);
      expect(summaries[i]!.attributes["gen_ai.request.model"]).toBe("fake-model");
    });
    // The title request, whose model the database does not record, names none.
    const title = spans.find((span) => span.attributes["contextscope.call.purpose"] === "title")!;
    expect(title.name).toBe("chat");
    expect(title.attributes["gen_ai.request.model"]).toBeUndefined();
  });
});
