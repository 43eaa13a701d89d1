// A session exported as a Hugging Face session trace (STS) reads back with the same messages: for
// every agent's recording, the trace is detected as STS; each call's request reads back as the
// source request's very messages (roles, texts, reasoning, tool calls and results) with its usage
// for as long as the source's requests grow by appending (a compaction, or an agent that sends an
// older message otherwise than before, ends that: the trace then holds every message sent, once,
// where it was first sent); no message any request sent is missing; and the trace read back and
// exported again is the same file, byte for byte. Against the wire: every message of every main
// request pi sent in a recording (system prompt aside) is in the trace as it was sent.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadAnySession } from "../../../src/cli/inputs";
import type { CliIo } from "../../../src/cli/io";
import { viewPipelineOptions } from "../../../src/cli/viewOptions";
import { sessionStsTrace } from "../../../src/core/export/sts/writer";
import type { ContextMessage, PipelineOptions, Session } from "../../../src/core/model";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { readSessionText } from "../../../src/core/session/index";
import { iterateTurnRequests } from "../../../src/core/session/turnRequests";
import { textString } from "../../../src/core/text/text";
import { sharedFixtures } from "../../support/fixtures";

const io: CliIo = { stdout: () => {}, stderr: () => {}, readFile: (file) => new Uint8Array(readFileSync(file)) };

/** The first file under `dir` whose name matches, depth first. */
function firstFile(dir: string, name: RegExp): string {
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      const found = (() => {
        try {
          return firstFile(full, name);
        } catch {
          return null;
        }
      })();
      if (found) return found;
    } else if (name.test(entry)) return full;
  }
  throw new Error(`no ${name} under ${dir}`);
}

/** A context message in the terms the trace keeps: role, text, reasoning, tool calls, the call a result answers. */
function normal(context: ContextMessage): string {
  const message = context.message;
  const text = (blocks: readonly { type: string; text?: unknown; mimeType?: string }[]) => blocks.map((b) => (b.type === "text" ? textString(b.text as string) : b.type === "image" ? `[image ${b.mimeType}]` : "")).join("");
  if (message.role === "user") return JSON.stringify([context.provenance.sentAsSystem ? "system" : "user", Array.isArray(message.content) ? text(message.content) : textString(message.content)]);
  if (message.role === "toolResult") return JSON.stringify(["tool", message.toolCallId, text(message.content)]);
  const thinking = message.content.flatMap((b) => (b.type === "thinking" ? [textString(b.thinking)] : [])).join("\n");
  const calls = message.content.flatMap((b) => (b.type === "toolCall" ? [[b.id, b.name, b.arguments]] : []));
  return JSON.stringify(["assistant", text(message.content), thinking, calls]);
}

function requests(session: Session, options: PipelineOptions): string[][] {
  return [...iterateTurnRequests(session, options)].map(({ request }) => request.messages.map(normal));
}

/** Every message of `part` is in `whole` (as often as it occurs in `part`). */
function holdsAll(part: readonly string[], whole: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const item of whole) left.set(item, (left.get(item) ?? 0) + 1);
  return part.every((item) => {
    const count = left.get(item) ?? 0;
    left.set(item, count - 1);
    return count > 0;
  });
}

/** The request read back without the system prompt the trace took from the source's request body (not one of its messages). */
function withoutAddedSystem(back: readonly string[], source: readonly string[]): string[] {
  return back.filter((message) => JSON.parse(message)[0] !== "system" || source.includes(message));
}

function isPrefix(part: readonly string[], whole: readonly string[]): boolean {
  return part.length <= whole.length && part.every((item, at) => whole[at] === item);
}

async function checkRoundTrip(file: string): Promise<void> {
  const source = await loadAnySession(io, file);
  const options = viewPipelineOptions({}, io, source);
  const exported = sessionStsTrace(source, { pipeline: options, redact: false, unmasked: [] });
  const back = readSessionText(exported.text, "trace.sts.jsonl");
  expect(back.formatId).toBe("hf-sts");
  expect(back.warnings).toEqual([]);
  const backOptions = viewPipelineOptions({}, io, back);
  const sourceRequests = requests(source, options);
  const backRequests = requests(back, backOptions);
  expect(sourceRequests.length).toBeGreaterThan(0);
  // Until the source's requests stop growing by appending (a compaction, a message sent otherwise
  // than before), each call's request reads back as the very same messages, with its usage.
  let grows = sourceRequests.findIndex((messages, at) => at + 1 < sourceRequests.length && !isPrefix(messages, sourceRequests[at + 1]!));
  if (grows < 0) grows = sourceRequests.length;
  const sourceTurns = analyzeSession(source, options).turns;
  const backTurns = analyzeSession(back, backOptions).turns;
  for (let at = 0; at < grows; at++) {
    expect(withoutAddedSystem(backRequests[at]!, sourceRequests[at]!), `turn ${at + 1}`).toEqual(sourceRequests[at]);
    if (at + 1 < sourceRequests.length) expect(backTurns[at]!.usage?.output ?? null, `turn ${at + 1} usage`).toBe(sourceTurns[at]!.usage?.output ?? null);
  }
  if (grows === sourceRequests.length) expect(backRequests.length).toBe(sourceRequests.length);
  // Nothing any request sent is missing from the trace (a compaction's summary sits after what it replaced).
  const whole = backRequests.at(-1)!;
  sourceRequests.forEach((messages, at) => expect(holdsAll(messages, whole), `turn ${at + 1}'s messages are all in the trace`).toBe(true));
  // Read back and exported again, the trace is the same file.
  expect(sessionStsTrace(back, { pipeline: backOptions, redact: false, unmasked: [] }).text).toBe(exported.text);
  return;
}

const committed = (relative: string) => path.resolve(__dirname, "../../fixtures", relative);

describe("export --format sts reads back with the same messages (committed fixtures)", () => {
  const cases: [string, string][] = [
    ["pi", committed("pi/print-openai-autocompact/session")],
    ["pi (Anthropic)", committed("pi/rpc-anthropic-manualcompact/session")],
    ["senpi", committed("senpi/print-openai-autocompact/session")],
    ["Claude Code", committed("claude/print-autocompact-manualcompact/session")],
    ["Codex", committed("codex/exec-autocompact/session")],
    ["deepseek-harness", committed("deepseek-harness/headless-deepseek-manualcompact/session")],
    ["Kimi Code", committed("kimi-code/run-autocompact/session")],
    ["Copilot CLI", committed("copilot-cli/recording-1.0.102")],
  ];
  for (const [agent, dir] of cases) it(agent, async () => checkRoundTrip(firstFile(dir, /\.(jsonl|jsonl\.zstd)$/)));
  it("opencode", async () => checkRoundTrip(committed("opencode/run-autocompact/session/export.json")));
  it("Kilo", async () => checkRoundTrip(committed("kilo/run-autocompact/session/kilo.db")));
  it("Crush", async () => checkRoundTrip(committed("crush/hand-made/crush.db")));
  it("hermes-agent", async () => checkRoundTrip(committed("hermes/storage/export.jsonl")));
});

const shared = sharedFixtures();
if (shared) {
  describe("export --format sts reads back with the same messages (shared recordings)", () => {
    it("Gemini CLI", async () => checkRoundTrip(firstFile(shared.case("gemini-cli/p-resume-autocompress").path("session/tmp"), /\.jsonl$/)));
    it("Qwen Code", async () => checkRoundTrip(firstFile(shared.case("qwen-code/p-continue-autocompress").path("session"), /\.jsonl$/)));
  });
}

/** A Chat Completions wire message in the trace's terms: role, text, tool calls (arguments parsed), the call a result answers. */
function wireKey(message: Record<string, unknown>): string {
  const content = message.content;
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((part) => ((part as { text?: string }).text ?? "")).join("") : "";
  if (message.role === "tool") return JSON.stringify(["tool", message.tool_call_id, text]);
  if (message.role === "assistant") {
    const calls = ((message.tool_calls as { id: string; function: { name: string; arguments: string } }[] | undefined) ?? []).map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)]);
    return JSON.stringify(["assistant", text, calls]);
  }
  return JSON.stringify([message.role, text]);
}

describe("export --format sts against the requests pi sent (recorded on the wire)", () => {
  it("every message of every recorded main request but the system prompt is in the trace, as sent", async () => {
    const dir = committed("pi/print-openai-autocompact");
    const source = await loadAnySession(io, firstFile(path.join(dir, "session"), /\.jsonl$/));
    const trace = sessionStsTrace(source, { pipeline: viewPipelineOptions({}, io, source), redact: false, unmasked: [] });
    const written = new Map<string, number>();
    for (const line of trace.text.trimEnd().split("\n").slice(1)) {
      const message = (JSON.parse(line) as { message: Record<string, unknown> }).message;
      const calls = (message.toolCalls as { id: string; function: { name: string; arguments: string } }[] | undefined)?.map((call) => ({ id: call.id, function: call.function }));
      const key = wireKey({ role: message.role, content: message.content, tool_call_id: message.toolCallId, ...(calls ? { tool_calls: calls } : {}) });
      written.set(key, (written.get(key) ?? 0) + 1);
    }
    const requestFiles = readdirSync(path.join(dir, "requests")).filter((name) => /^\d{3}\.json$/.test(name));
    expect(requestFiles.length).toBeGreaterThan(10);
    let checked = 0;
    for (const name of requestFiles) {
      const body = JSON.parse(readFileSync(path.join(dir, "requests", name), "utf8")) as { messages: Record<string, unknown>[]; tools?: unknown };
      // The summariser's requests (no tools) are not calls of the conversation.
      if (body.tools === undefined) continue;
      for (const message of body.messages.filter((item) => item.role !== "system")) {
        expect(written.has(wireKey(message)), `${name}: ${wireKey(message).slice(0, 120)}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
