// Conformance of the per-turn context with the recorded fixtures (spec test table rows 15, 16):
// for every main request of each pi/senpi fixture, the converted context of turn k must be the
// recorded conversation. Checked twice: against a small independent mapping of LLM messages to
// the wire shape (this file), and byte for byte through the provider serializer with the
// request header taken from the fixture's first request.
import { isText, textString, type Text } from "../../src/core/text/text";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ContextMessage, ProfileId, Session } from "../../src/core/model";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../src/core/session/pipeline";
import { extractRequestHeader } from "../../src/core/providers";
import { readSessionBytes } from "../../src/core/session/index";
import { fixtureCase, type FixtureCase } from "../support/fixtures";
import { stringifyWithTexts } from "../../src/core/text/text";

const CASES: { name: string; profile: ProfileId; wire: "openai" | "anthropic" }[] = [
  { name: "pi/print-openai-autocompact", profile: "pi", wire: "openai" },
  { name: "pi/rpc-anthropic-manualcompact", profile: "pi", wire: "anthropic" },
  { name: "senpi/print-openai-autocompact", profile: "senpi", wire: "openai" },
];

function loadSession(fixture: FixtureCase): Session {
  const file = fixture.sessionPath;
  const decoder = new TextDecoder();
  return readSessionBytes(readFileSync(file), path.basename(file), (bytes) => decoder.decode(bytes));
}

function mainRequests(fixture: FixtureCase): { name: string; text: string }[] {
  return fixture.requests("main").map((request) => ({ name: `${request.id}.meta.json`, text: request.text }));
}

type Json = Record<string, unknown>;
const textOf = (blocks: { type: string; text?: Text }[]) => blocks.filter((b) => b.type === "text").map((b) => textString(b.text ?? "")).join("");

/** PI-R5, independent of the serializer: what Chat Completions messages the context becomes. */
function toOpenAi(messages: ContextMessage[]): Json[] {
  return messages.map(({ message }) => {
    if (message.role === "user") {
      const content = isText(message.content) ? [{ type: "text", text: message.content }] : message.content;
      return { role: "user", content: content.map((b) => ({ type: "text", text: (b as { text: Text }).text })) };
    }
    if (message.role === "toolResult") return { role: "tool", content: textOf(message.content), tool_call_id: message.toolCallId };
    const calls = message.content.filter((b) => b.type === "toolCall");
    const out: Json = { role: "assistant", content: calls.length > 0 && textOf(message.content) === "" ? null : textOf(message.content) };
    if (calls.length > 0) {
      out.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
    }
    return out;
  });
}

/** PI-R9 without cache markers: tool results of a run grouped into one user message. */
function toAnthropic(messages: ContextMessage[]): Json[] {
  const out: Json[] = [];
  for (const { message } of messages) {
    if (message.role === "user") {
      const content = isText(message.content) ? [{ type: "text", text: message.content }] : message.content;
      out.push({ role: "user", content: content.map((b) => ({ type: "text", text: (b as { text: Text }).text })) });
    } else if (message.role === "assistant") {
      out.push({
        role: "assistant",
        content: message.content.map((b) =>
          b.type === "toolCall" ? { type: "tool_use", id: b.id, name: b.name, input: b.arguments } : { type: "text", text: (b as { text: string }).text },
        ),
      });
    } else {
      const block = { type: "tool_result", tool_use_id: message.toolCallId, content: textOf(message.content), is_error: message.isError };
      const last = out[out.length - 1];
      const lastContent = last?.content as Json[] | undefined;
      if (last && last.role === "user" && lastContent?.every((b) => b.type === "tool_result")) lastContent.push(block);
      else out.push({ role: "user", content: [block] });
    }
  }
  return out;
}

function stripCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "cache_control").map(([k, v]) => [k, stripCacheControl(v)]));
  }
  return value;
}

for (const fixture of CASES) {
  describe(`conformance: ${fixture.name} (${fixture.profile} profile)`, () => {
    const recorded = fixtureCase(fixture.name);
    const session = loadSession(recorded);
    const requests = mainRequests(recorded);
    const analysis = analyzeSession(session, { profile: fixture.profile });

    it("reads cleanly and has one turn per recorded main request (15)", () => {
      expect(session.warnings).toEqual([]);
      expect(requests).toHaveLength(15);
      expect(analysis.turns).toHaveLength(15);
      expect(analysis.warnings).toEqual([]);
    });

    it("the converted context of every turn is the recorded conversation (15/15)", () => {
      let equal = 0;
      requests.forEach((request, index) => {
        const body = JSON.parse(request.text) as { messages: Json[] };
        const context = buildTurnContext(session, { profile: fixture.profile }, index + 1);
        const recorded = stripCacheControl(fixture.wire === "openai" ? body.messages.filter((m) => m.role !== "system") : body.messages);
        const rebuilt = fixture.wire === "openai" ? toOpenAi(context.messages) : toAnthropic(context.messages);
        expect(rebuilt, `${request.name}`).toEqual(recorded);
        expect(analysis.turns[index]?.messageCount).toBe(context.messages.length);
        equal += 1;
      });
      expect(equal).toBe(15);
    });

    it("the serialized request equals the recorded body byte for byte with the fixture's header (15/15)", () => {
      const header = extractRequestHeader(JSON.parse(requests[0]!.text), "requests/001.json");
      const mismatches = requests.filter((request, index) => {
        const built = buildTurnRequest(session, { profile: fixture.profile, header }, index + 1);
        return stringifyWithTexts(built.body) !== request.text;
      });
      expect(mismatches.map((r) => r.name)).toEqual([]);
    });
  });
}
