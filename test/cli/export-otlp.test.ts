// `export --format otlp`: a recording's trace has one chat span per main provider call, whose token
// attributes equal the usage the provider's own answers carry (read from responses/, not from the
// app's model); --endpoint posts the same spans with the headers from the environment, and a bad
// URL, a refusing server or a receiver that says no give a clear error, a non-zero exit and no file.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { readableSpans } from "../../src/app/otlpTrace";
import { sessionTrace } from "../../src/core/export/otlp/index";
import { datasetPriceTable } from "../../src/core/pricing/dataset";
import { readSessionText } from "../../src/core/session/index";
import { describeShared, fixtureCase } from "../support/fixtures";
import { recordedMainCalls, spansOf, startReceiver, type OtlpSpan } from "./otlp-helpers";
import { runCliText } from "./share-helpers";

const chatSpans = (spans: OtlpSpan[]) => spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");

async function exportedSpans(file: string, extra: string[] = []): Promise<OtlpSpan[]> {
  const run = await runCliText(["export", file, "--format", "otlp", ...extra]);
  expect(run.code, run.stderr).toBe(0);
  return spansOf(JSON.parse(run.stdout));
}

describeShared("export --format otlp against the provider's recorded answers", (shared) => {
  it("Claude Code: one chat span per main call, matched by response id, tokens as the provider billed them", async () => {
    const recording = shared.case("claude/print-autocompact-manualcompact");
    const calls = recordedMainCalls(recording);
    const spans = await exportedSpans(recording.sessionPath);
    const chats = chatSpans(spans);
    expect(chats.length).toBe(calls.length);
    expect(calls.length).toBe(15);
    const byId = new Map(chats.map((span) => [span.attributes["gen_ai.response.id"], span]));
    for (const call of calls) {
      const span = byId.get(call.id);
      expect(span, `a span for ${call.id}`).toBeDefined();
      expect(span!.attributes["gen_ai.usage.input_tokens"]).toBe(call.input);
      expect(span!.attributes["gen_ai.usage.output_tokens"]).toBe(call.output);
      expect(span!.attributes["gen_ai.usage.cache_read.input_tokens"]).toBe(call.cacheRead);
      expect(span!.attributes["gen_ai.usage.cache_write.input_tokens"]).toBe(call.cacheWrite);
      expect(span!.attributes["gen_ai.provider.name"]).toBe("anthropic");
    }
    // One trace; every chat span sits under the thread's invoke_agent span.
    const agent = spans.find((span) => span.attributes["gen_ai.operation.name"] === "invoke_agent")!;
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    expect(chats.every((span) => span.parentSpanId === agent.spanId)).toBe(true);
    // The calls after the automatic compaction (before prompt 5) say the conversation was compacted; the first ones do not.
    expect(chats[0]!.attributes["gen_ai.conversation.compacted"]).toBeUndefined();
    expect(chats.at(-1)!.attributes["gen_ai.conversation.compacted"]).toBe(true);
  });

  it("Codex: one chat span per main call in order, input tokens counting the cached ones as OpenAI does", async () => {
    const recording = shared.case("codex/exec-autocompact");
    const calls = recordedMainCalls(recording);
    const chats = chatSpans(await exportedSpans(recording.sessionPath));
    expect(chats.length).toBe(calls.length);
    chats.forEach((span, index) => {
      expect(span.attributes["gen_ai.usage.input_tokens"]).toBe(calls[index]!.input);
      expect(span.attributes["gen_ai.usage.output_tokens"]).toBe(calls[index]!.output);
      expect(span.attributes["gen_ai.usage.cache_read.input_tokens"]).toBe(calls[index]!.cacheRead);
    });
  });
});

const PI = fixtureCase("pi/rpc-anthropic-manualcompact").sessionPath;

describe("export --format otlp with sub-agent threads", () => {
  it("a sub-agent's invoke_agent span sits under the execute_tool span of the call that started it", async () => {
    const structures = fixtureCase("claude/structures");
    const agent = structures.path("subagents-session/subagents/agent-a0123456789abcdef.jsonl");
    const spans = await exportedSpans(structures.path("subagents-session.jsonl"), ["--with", agent]);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const agents = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "invoke_agent");
    expect(agents.length).toBe(2);
    const sub = agents.find((span) => span.attributes["gen_ai.agent.id"] === "a0123456789abcdef")!;
    const parent = byId.get(sub.parentSpanId!)!;
    expect(parent.attributes["gen_ai.operation.name"]).toBe("execute_tool");
    expect(parent.attributes["gen_ai.tool.name"]).toBe("Agent");
    expect(byId.get(parent.parentSpanId!)).toBe(agents.find((span) => span.parentSpanId === undefined));
    expect(chatSpans(spans).filter((span) => span.parentSpanId === sub.spanId).length).toBeGreaterThan(0);
  });
});

describe("export --format otlp --endpoint", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("posts protobuf by default, and JSON equal to the file with --protocol http/json, with the headers from the environment", async () => {
    const receiver = await startReceiver();
    process.env.OTEL_EXPORTER_OTLP_HEADERS = "authorization=Bearer test-key,x-team=contextscope";
    try {
      const proto = await runCliText(["export", PI, "--format", "otlp", "--endpoint", receiver.url]);
      expect(proto.code, proto.stderr).toBe(0);
      const json = await runCliText(["export", PI, "--format", "otlp", "--endpoint", `${receiver.url}/v1/traces`, "--protocol", "http/json"]);
      expect(json.code, json.stderr).toBe(0);
      expect(receiver.received.map((request) => [request.path, request.headers["content-type"]])).toEqual([
        ["/v1/traces", "application/x-protobuf"],
        ["/v1/traces", "application/json"],
      ]);
      for (const request of receiver.received) {
        expect(request.headers.authorization).toBe("Bearer test-key");
        expect(request.headers["x-team"]).toBe("contextscope");
      }
      const file = await exportedSpans(PI);
      expect(spansOf(JSON.parse(receiver.received[1]!.body.toString("utf8")))).toEqual(file);
      // The protobuf body is the OpenTelemetry serializer's encoding of the same spans.
      const spans = readableSpans(sessionTrace(readSessionText(readFileSync(PI, "utf8"), path.basename(PI)), { pipeline: { profile: "pi" }, prices: datasetPriceTable(), contents: null }));
      expect(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!).equals(receiver.received[0]!.body)).toBe(true);
      expect(json.stderr).toMatch(new RegExp(`^sent ${file.length} spans \\(trace [0-9a-f]{32}\\) to ${receiver.url}/v1/traces\\n$`));
    } finally {
      await receiver.close();
    }
  });

  it("a bad URL is refused before anything is read or written", async () => {
    for (const bad of ["not a url", "ftp://example.invalid/v1/traces"]) {
      const run = await runCliText(["export", PI, "--format", "otlp", "--endpoint", bad]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/--endpoint .*(not a URL|only http and https)/);
    }
  });

  it("a refusing server and a receiver that answers an error: a clear error, exit 1, nothing written", async () => {
    process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT = "1500";
    const closed = await startReceiver();
    await closed.close();
    const refused = await runCliText(["export", PI, "--format", "otlp", "--endpoint", closed.url]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`the trace was not sent to ${closed.url}/v1/traces`);
    const failing = await startReceiver(400);
    try {
      const rejected = await runCliText(["export", PI, "--format", "otlp", "--endpoint", failing.url, "--protocol", "http/json"]);
      expect(rejected.code).toBe(1);
      expect(rejected.stdout).toBe("");
      expect(rejected.stderr).toContain("the trace was not sent");
    } finally {
      await failing.close();
    }
  });

  it("--out writes the file whole; --out into a missing folder fails without leaving a file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "contextscope-otlp-"));
    const out = path.join(dir, "trace.json");
    const run = await runCliText(["export", PI, "--format", "otlp", "--out", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(spansOf(JSON.parse(readFileSync(out, "utf8")))).toEqual(await exportedSpans(PI));
    const missing = path.join(dir, "no-such-folder", "trace.json");
    const failed = await runCliText(["export", PI, "--format", "otlp", "--out", missing]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`cannot write ${missing}`);
    expect(existsSync(missing)).toBe(false);
  });
});
