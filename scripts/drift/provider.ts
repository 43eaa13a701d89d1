// The scripted provider the drift harness runs agents against, on 127.0.0.1: it answers
// Anthropic Messages, OpenAI Chat Completions and Responses, and Gemini API requests with the
// scripted conversation (conversation.ts). Which step to answer is read from the request itself:
// the last scripted prompt in its conversation names the turn, and the tool results after it say
// how many of the turn's tool steps were answered. A request without tools, or whose last user
// message is neither a prompt nor a tool result (a summariser or title request), gets the fixed
// summary text. Reported usage is ceil(characters / 4) per side, except where the agent's driver
// asks for a large input count at one step to provoke automatic compaction.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { encodeAnswer, type Answer, type ToolCall, type Wire } from "./answers";
import { SCRIPTED_TURNS, SUMMARY_TEXT } from "./conversation";

/** How an agent names its shell tool and its arguments. */
type ShellCall = (command: string) => { name: string; args: Record<string, unknown> };

export interface ProviderSettings {
  shellCall: ShellCall;
  /** Report `inputTokens` on the answer to this turn's step (0-based indices into SCRIPTED_TURNS and its steps). */
  inflate?: { turn: number; step: number; inputTokens: number };
  /**
   * Summaries in the form the agent asks for: Qwen Code wants `<analysis>` then `<state_snapshot>`,
   * and retries, then falls back to keeping the raw text, when the answer has no snapshot.
   */
  summaryForm?: "state-snapshot";
  /**
   * User messages the agent adds after a prompt on its own, told by how their text starts (Kimi
   * Code's `<system-reminder>` messages): not "something else" that would make the request a
   * summariser's.
   */
  reminderPrefix?: string;
}

/** What the provider answered, one row per request, for the harness's report. */
export interface AnsweredRequest {
  path: string;
  kind: "step" | "summary";
  turn: number | null;
  step: number | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function wireOf(path: string): Wire | null {
  if (path.includes("/messages")) return "anthropic-messages";
  if (path.includes("/chat/completions")) return "openai-chat";
  if (path.includes("/responses")) return "openai-responses";
  if (path.includes(":streamGenerateContent") || path.includes(":generateContent")) return "gemini";
  return null;
}

/** One conversation message as the position finder needs it: its user texts and how many tool results it holds. */
interface Turnish {
  user: boolean;
  texts: string[];
  toolResults: number;
}

function textsOf(content: unknown, textTypes: string[]): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.filter(isObject).flatMap((part) => (typeof part.text === "string" && (part.type === undefined || textTypes.includes(String(part.type))) ? [part.text] : []));
}

function messagesOf(wire: Wire, body: Json): Turnish[] {
  switch (wire) {
    case "anthropic-messages":
      return (Array.isArray(body.messages) ? body.messages : []).filter(isObject).map((message) => ({
        user: message.role === "user",
        texts: message.role === "user" ? textsOf(message.content, ["text"]) : [],
        toolResults: Array.isArray(message.content) ? message.content.filter((block) => isObject(block) && block.type === "tool_result").length : 0,
      }));
    case "openai-chat":
      return (Array.isArray(body.messages) ? body.messages : []).filter(isObject).map((message) => ({
        user: message.role === "user" || message.role === "tool",
        texts: message.role === "user" ? textsOf(message.content, ["text"]) : [],
        toolResults: message.role === "tool" ? 1 : 0,
      }));
    case "openai-responses":
      return (Array.isArray(body.input) ? body.input : typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : []).filter(isObject).map((item) => ({
        user: (item.type === "message" || item.type === undefined) ? item.role === "user" : item.type === "function_call_output",
        texts: item.role === "user" ? textsOf(item.content, ["input_text", "text"]) : [],
        toolResults: item.type === "function_call_output" ? 1 : 0,
      }));
    case "gemini":
      return (Array.isArray(body.contents) ? body.contents : []).filter(isObject).map((content) => {
        const parts = Array.isArray(content.parts) ? content.parts.filter(isObject) : [];
        return {
          user: content.role === "user",
          texts: content.role === "user" ? parts.flatMap((part) => (typeof part.text === "string" ? [part.text] : [])) : [],
          toolResults: parts.filter((part) => isObject(part.functionResponse)).length,
        };
      });
  }
}

function hasTools(wire: Wire, body: Json): boolean {
  const tools = body.tools;
  if (!Array.isArray(tools) || tools.length === 0) return false;
  if (wire !== "gemini") return true;
  return tools.some((tool) => isObject(tool) && Array.isArray(tool.functionDeclarations) && tool.functionDeclarations.length > 0);
}

/** The scripted turn and step a request asks for, or null for a summariser / title request. */
function positionOf(wire: Wire, body: Json, reminderPrefix?: string): { turn: number; step: number } | null {
  if (!hasTools(wire, body)) return null;
  const isReminder = (message: Turnish) => reminderPrefix !== undefined && message.toolResults === 0 && message.texts.length > 0 && message.texts.every((text) => text.startsWith(reminderPrefix));
  const messages = messagesOf(wire, body).filter((message) => !(message.user && isReminder(message)));
  let turn = -1;
  let results = 0;
  let lastIsOther = false;
  for (const message of messages) {
    if (!message.user) {
      lastIsOther = false;
      continue;
    }
    const prompt = SCRIPTED_TURNS.findIndex((scripted) => message.texts.some((text) => text.includes(scripted.prompt)));
    if (prompt >= 0) {
      turn = prompt;
      results = 0;
      lastIsOther = false;
    } else if (message.toolResults > 0) {
      results += message.toolResults;
      lastIsOther = false;
    } else lastIsOther = true;
  }
  if (turn < 0 || lastIsOther) return null;
  const steps = SCRIPTED_TURNS[turn]!.steps;
  let answered = 0;
  for (let step = 0; step < steps.length; step++) {
    if (answered >= results) return { turn, step };
    const scripted = steps[step]!;
    answered += scripted.kind === "shell" ? scripted.commands.length : 0;
  }
  return { turn, step: steps.length - 1 };
}

export class ScriptedProvider {
  readonly answered: AnsweredRequest[] = [];
  private server: http.Server | null = null;
  private counter = 0;

  constructor(private readonly settings: ProviderSettings) {}

  /** Starts listening on 127.0.0.1 (a free port); resolves with the base URL. */
  async start(): Promise<string> {
    const server = http.createServer((request, response) => void this.handle(request, response));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = request.url ?? "/";
    const wire = wireOf(path);
    let body: Json = {};
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (isObject(parsed)) body = parsed;
    } catch {
      // Not JSON (a health check, a models listing): answered below as a plain 404 or an empty list.
    }
    if (request.method !== "POST" || wire === null) {
      // Model listings and other lookups some agents make at start: an empty, well-formed answer.
      response.writeHead(path.endsWith("/models") ? 200 : 404, { "content-type": "application/json" });
      response.end(path.endsWith("/models") ? JSON.stringify({ object: "list", data: [] }) : "{}");
      return;
    }
    const answer = this.answerFor(wire, body, raw.length, path);
    const stream = wire === "gemini" ? path.includes(":streamGenerateContent") : body.stream === true;
    const encoded = encodeAnswer(wire, answer, stream);
    response.writeHead(200, { "content-type": encoded.contentType });
    response.end(encoded.body);
  }

  private answerFor(wire: Wire, body: Json, characters: number, path: string): Answer {
    const position = positionOf(wire, body, this.settings.reminderPrefix);
    const id = `drift${String(++this.counter).padStart(4, "0")}`;
    const model = typeof body.model === "string" ? body.model : (/models\/([^:]+):/.exec(path)?.[1] ?? "scripted-model");
    let text = this.settings.summaryForm === "state-snapshot" ? `<analysis>\nThe conversation so far, in order.\n</analysis>\n<state_snapshot>\n${SUMMARY_TEXT}\n</state_snapshot>` : SUMMARY_TEXT;
    let calls: ToolCall[] = [];
    let inputTokens = Math.ceil(characters / 4);
    if (position === null) this.answered.push({ path, kind: "summary", turn: null, step: null });
    else {
      this.answered.push({ path, kind: "step", turn: position.turn, step: position.step });
      const step = SCRIPTED_TURNS[position.turn]!.steps[position.step]!;
      if (step.kind === "text") {
        text = step.text;
      } else {
        text = "";
        const prefix = wire === "anthropic-messages" ? "toolu" : "call";
        calls = step.commands.map((command, index) => ({ id: `${prefix}_${id}_${index}`, ...this.settings.shellCall(command) }));
      }
      const inflate = this.settings.inflate;
      if (inflate && inflate.turn === position.turn && inflate.step === position.step) inputTokens = inflate.inputTokens;
    }
    const outputTokens = Math.ceil((text.length + JSON.stringify(calls).length) / 4);
    return { id, model, text, calls, inputTokens, outputTokens };
  }
}
