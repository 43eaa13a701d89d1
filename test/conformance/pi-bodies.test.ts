// Pins the provider serializers against the recorded pi and senpi request bodies, independently of
// session reading and conversion: every recorded conversation is parsed back into pi-ai messages
// (a small test-only inverse mapper below), serialized with the header of the case's request 001
// (or, for summary requests, of the request itself) and compared byte for byte (PI-R13).
import { describe, expect, it } from "vitest";
import type { ApiId, LlmMessage, ToolResultMessage, AssistantMessage, UserMessage } from "../../src/core/model";
import { detectRequestShape, extractRequestHeader, getSerializer } from "../../src/core/providers";
import { resolveModel } from "../../src/core/models/catalogue";
import { fixtureCase } from "../support/fixtures";

const CASES: { dir: string; api: ApiId }[] = [
  { dir: "pi/print-openai-autocompact", api: "openai-completions" },
  { dir: "pi/rpc-anthropic-manualcompact", api: "anthropic-messages" },
  { dir: "senpi/print-openai-autocompact", api: "openai-completions" },
];

type Json = Record<string, unknown>;

interface Recorded {
  name: string;
  text: string;
  body: Json;
  kind: string;
}

function readRequests(dir: string): Recorded[] {
  return fixtureCase(dir)
    .requests()
    .map((request) => ({ name: request.file, text: request.text, body: request.body, kind: request.kind }));
}

const ORIGIN = { provider: "fake", model: "fake-model" };

/** Chat Completions wire messages → pi-ai messages (system messages are the header's business). */
function fromCompletions(wire: Json[]): LlmMessage[] {
  const toolNames = new Map<string, string>();
  const out: LlmMessage[] = [];
  for (const message of wire) {
    if (message.role === "system" || message.role === "developer") continue;
    if (message.role === "user") {
      const content = message.content as string | Json[];
      out.push({
        role: "user",
        content: typeof content === "string" ? content : content.map((part) => ({ type: "text", text: String(part.text) })),
      } satisfies UserMessage);
    } else if (message.role === "assistant") {
      const content: AssistantMessage["content"] = [];
      if (typeof message.content === "string") content.push({ type: "text", text: message.content });
      for (const call of (message.tool_calls as Json[] | undefined) ?? []) {
        const fn = call.function as Json;
        toolNames.set(String(call.id), String(fn.name));
        content.push({ type: "toolCall", id: String(call.id), name: String(fn.name), arguments: JSON.parse(String(fn.arguments)) });
      }
      out.push({ role: "assistant", content, api: "openai-completions", ...ORIGIN, stopReason: "stop" });
    } else if (message.role === "tool") {
      const id = String(message.tool_call_id);
      out.push({
        role: "toolResult",
        toolCallId: id,
        toolName: toolNames.get(id) ?? "unknown",
        content: [{ type: "text", text: String(message.content) }],
        isError: false,
      } satisfies ToolResultMessage);
    } else {
      throw new Error(`unexpected role ${String(message.role)}`);
    }
  }
  return out;
}

/** Anthropic wire messages → pi-ai messages (a user message of tool_result blocks is a run of results). */
function fromAnthropic(wire: Json[]): LlmMessage[] {
  const toolNames = new Map<string, string>();
  const out: LlmMessage[] = [];
  for (const message of wire) {
    const blocks = message.content as Json[];
    if (message.role === "assistant") {
      const content: AssistantMessage["content"] = blocks.map((block) => {
        if (block.type === "text") return { type: "text", text: String(block.text) };
        if (block.type === "tool_use") {
          toolNames.set(String(block.id), String(block.name));
          return { type: "toolCall", id: String(block.id), name: String(block.name), arguments: block.input as Json };
        }
        throw new Error(`unexpected assistant block ${String(block.type)}`);
      });
      out.push({ role: "assistant", content, api: "anthropic-messages", ...ORIGIN, stopReason: "stop" });
    } else if (blocks.every((block) => block.type === "tool_result")) {
      for (const block of blocks) {
        const id = String(block.tool_use_id);
        out.push({
          role: "toolResult",
          toolCallId: id,
          toolName: toolNames.get(id) ?? "unknown",
          content: [{ type: "text", text: String(block.content) }],
          isError: block.is_error === true,
        });
      }
    } else {
      out.push({ role: "user", content: blocks.map((block) => ({ type: "text", text: String(block.text) })) });
    }
  }
  return out;
}

function toMessages(api: ApiId, body: Json): LlmMessage[] {
  const wire = body.messages as Json[];
  return api === "anthropic-messages" ? fromAnthropic(wire) : fromCompletions(wire);
}

for (const testCase of CASES) {
  describe(`recorded bodies of ${testCase.dir} (${testCase.api})`, () => {
    const requests = readRequests(testCase.dir);
    const first = requests[0]!;
    const model = resolveModel({ provider: "fake", modelId: "fake-model" }, testCase.api);
    const serializer = getSerializer(testCase.api);

    it("detects the shape of every recorded body", () => {
      for (const request of requests) expect(detectRequestShape(request.body), request.name).toBe(testCase.api);
    });

    it("uses the catalogue default for the unknown fake model", () => {
      expect(model.source).toBe("catalogue-default");
      expect(model.api).toBe(testCase.api);
    });

    const mains = requests.filter((request) => request.kind === "main");
    it.each(mains.map((request) => [request.name, request] as const))(
      "main request %s is rebuilt byte for byte from the header of 001",
      (_name, request) => {
        const header = extractRequestHeader(first.body, `${testCase.dir}/001.json`);
        const out = serializer.serialize({
          model,
          messages: toMessages(testCase.api, request.body),
          header,
          thinkingLevel: "off",
        });
        expect(out.notRecorded).toEqual([]);
        expect(out.adjustments).toEqual([]);
        expect(JSON.stringify(out.body)).toBe(request.text);
      },
    );

    const summaries = requests.filter((request) => request.kind === "summary");
    it.each(summaries.map((request) => [request.name, request] as const))(
      "summary request %s is rebuilt byte for byte from its own header",
      (_name, request) => {
        const header = extractRequestHeader(request.body, `${testCase.dir}/${request.name}`);
        const hasTools = "tools" in request.body;
        expect(header.tools === undefined).toBe(!hasTools);
        const out = serializer.serialize({
          model,
          messages: toMessages(testCase.api, request.body),
          header,
          thinkingLevel: "off",
          omitTools: !hasTools,
        });
        expect(out.notRecorded).toEqual([]);
        expect(JSON.stringify(out.body)).toBe(request.text);
      },
    );
  });
}
