// Google Gemini generateContent (`api: "google-generative-ai"`): generic mapping (PI-R14), no
// fixture pins it yet. The body is the REST request the @google/genai SDK sends for pi-ai's
// google.ts parameters (facts only); the model id is part of the URL, not of the body.
//  - `contents`: user `{role:"user",parts:[{text}|{inlineData:{mimeType,data}}]}`; assistant
//    `{role:"model",parts:[…]}` with `{text}`, thinking `{thought:true,text}` (same model only,
//    else plain text), `{functionCall:{name,args}}`; blank text and thinking are dropped;
//  - tool results: `{functionResponse:{name,response:{output}|{error}}}` parts, consecutive ones in
//    one user content; their images go inside `functionResponse.parts` for Gemini 3, else in a
//    following user content "Tool result image:";
//  - ids on functionCall/functionResponse only for claude-/gpt-oss- models; Gemini 3 function
//    calls without a thought signature carry pi's "skip_thought_signature_validator" sentinel;
//  - `systemInstruction:{parts:[{text}]}`, `tools:[{functionDeclarations:[{name,description,
//    parametersJsonSchema}]}]` (omitted when empty), `generationConfig:{maxOutputTokens,
//    thinkingConfig}`; thinking: level for Gemini 3 Pro/Flash, budget otherwise.
import type { AssistantMessage, ModelInfo, RequestHeader, ToolDefinition, ToolResultMessage, UserMessage } from "../model";
import { isNotRecorded } from "../model";
import type { ProviderSerializer, SerializeInput, SerializeOutput } from "./registry";
import {
  appendExtraSettings,
  collectExtraSettings,
  isBlank,
  joinText,
  neutralTool,
  numberOrUndefined,
  resolveMaxTokens,
  resolveSystemPrompt,
  resolveTools,
  sanitizeText,
  textOfContent,
  thinkingToReasoning,
} from "./shared";
import { isObject } from "../util/is-object";
import { isText, textUnits } from "../text/text";
import type { ReasoningLevel } from "./shared";
import { prepareMessages } from "./transform";
import { sameRun, WireCache } from "./wire-cache";

const SERIALIZER_ID = "google-generative-ai";

const DERIVED_KEYS: ReadonlySet<string> = new Set(["model", "contents", "systemInstruction", "tools", "generationConfig"]);
const DERIVED_GENERATION_KEYS: ReadonlySet<string> = new Set(["maxOutputTokens", "thinkingConfig"]);

const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";
const IMAGE_ONLY_RESULT = "(see attached image)";
const RESULT_IMAGE_INTRO = "Tool result image:";

type Part = Record<string, unknown>;
type Content = { role: "user" | "model"; parts: Part[] };

function requiresToolCallId(model: ModelInfo): boolean {
  return model.id.startsWith("claude-") || model.id.startsWith("gpt-oss-");
}

function isGemini3(model: ModelInfo): boolean {
  return model.id.toLowerCase().includes("gemini-3");
}

function gemini3Family(model: ModelInfo): "pro" | "flash" | null {
  const id = model.id.toLowerCase();
  if (/gemini-3(?:\.\d+)?-pro/.test(id)) return "pro";
  if (/gemini-3(?:\.\d+)?-flash/.test(id)) return "flash";
  return null;
}

/** pi-ai's thinking budgets per Gemini 2.5 family; -1 (dynamic) for other models. */
function thinkingBudget(model: ModelInfo, level: Exclude<ReasoningLevel, "xhigh">): number {
  const high = model.id.includes("2.5-pro") ? 32768 : model.id.includes("2.5-flash") ? 24576 : null;
  if (high === null) return -1;
  return { minimal: 128, low: 2048, medium: 8192, high }[level];
}

function thinkingConfig(model: ModelInfo, thinkingLevel: string): Part | null {
  const reasoning = thinkingToReasoning(thinkingLevel);
  if (!reasoning || !model.reasoning) return null;
  const level = reasoning === "xhigh" ? "high" : reasoning;
  const family = gemini3Family(model);
  if (family === "pro") return { includeThoughts: true, thinkingLevel: level === "minimal" || level === "low" ? "LOW" : "HIGH" };
  if (family === "flash") return { includeThoughts: true, thinkingLevel: level.toUpperCase() };
  return { includeThoughts: true, thinkingBudget: thinkingBudget(model, level) };
}

function assistantParts(message: AssistantMessage, model: ModelInfo): Part[] {
  const same = message.provider === model.provider && message.model === model.id;
  const parts: Part[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (isBlank(block.text)) continue;
      const part: Part = { text: sanitizeText(block.text) };
      if (same && block.textSignature) part.thoughtSignature = block.textSignature;
      parts.push(part);
    } else if (block.type === "thinking") {
      if (isBlank(block.thinking)) continue;
      if (!same) {
        parts.push({ text: sanitizeText(block.thinking) });
        continue;
      }
      const part: Part = { thought: true, text: sanitizeText(block.thinking) };
      if (block.thinkingSignature) part.thoughtSignature = block.thinkingSignature;
      parts.push(part);
    } else {
      const call: Part = { name: block.name, args: block.arguments ?? {} };
      if (requiresToolCallId(model)) call.id = block.id;
      const part: Part = { functionCall: call };
      const signature = (same ? block.thoughtSignature : undefined) ?? (isGemini3(model) ? SKIP_THOUGHT_SIGNATURE : undefined);
      if (signature) part.thoughtSignature = signature;
      parts.push(part);
    }
  }
  return parts;
}

function addToolResult(contents: Content[], result: ToolResultMessage, model: ModelInfo): void {
  const text = joinText(result.content, "\n");
  const images = model.supportsImages === true ? result.content.filter((block) => block.type === "image") : [];
  const value = textUnits(text) > 0 ? sanitizeText(text) : images.length > 0 ? IMAGE_ONLY_RESULT : "";
  const imageParts = images.map((block) => (block.type === "image" ? { inlineData: { mimeType: block.mimeType, data: block.data } } : {}));
  const nestImages = isGemini3(model);

  const response: Part = { name: result.toolName, response: result.isError ? { error: value } : { output: value } };
  if (imageParts.length > 0 && nestImages) response.parts = imageParts;
  if (requiresToolCallId(model)) response.id = result.toolCallId;
  const part: Part = { functionResponse: response };

  const last = contents[contents.length - 1];
  if (last && last.role === "user" && last.parts.some((p) => "functionResponse" in p)) last.parts.push(part);
  else contents.push({ role: "user", parts: [part] });

  if (imageParts.length > 0 && !nestImages) contents.push({ role: "user", parts: [{ text: RESULT_IMAGE_INTRO }, ...imageParts] });
}

function convertTools(tools: readonly ToolDefinition[]): Part[] | null {
  if (tools.length === 0) return null;
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parametersJsonSchema: tool.parameters,
      })),
    },
  ];
}

/** Contents per message (per model: parts depend on it) and per run of tool results. */
const messageContent = new WireCache<Content | null>();
const toolRunContents = new WireCache<{ run: ToolResultMessage[]; contents: Content[] }>();
const toolsWire = new WireCache<Part[] | null>();

function userContent(message: UserMessage, model: ModelInfo): Content | null {
  const parts: Part[] =
    isText(message.content)
      ? [{ text: sanitizeText(message.content) }]
      : message.content
          .filter((block) => block.type === "text" || model.supportsImages === true)
          .map((block) =>
            block.type === "text" ? { text: sanitizeText(block.text) } : { inlineData: { mimeType: block.mimeType, data: block.data } },
          );
  return parts.length > 0 ? { role: "user", parts } : null;
}

function hasFunctionResponse(content: Content | undefined): boolean {
  return content !== undefined && content.role === "user" && content.parts.some((p) => "functionResponse" in p);
}

function serialize(input: SerializeInput): SerializeOutput {
  const { model, header } = input;
  const notRecordedLabels: string[] = [];
  const normalise = requiresToolCallId(model) ? (id: string) => id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) : null;
  const prepared = prepareMessages(input.messages, model, normalise, input.options?.transformMessages, SERIALIZER_ID, input.messagesGrowing);
  const contents: Content[] = [];
  const config = `${model.supportsImages === true}\u0000${model.provider}\u0000${model.id}`;

  const list = prepared.messages;
  for (let i = 0; i < list.length; i++) {
    const message = list[i]!;
    if (message.role === "user") {
      const content = messageContent.get(config, message, () => userContent(message, model));
      if (content) contents.push(content);
    } else if (message.role === "assistant") {
      const content = messageContent.get(config, message, () => {
        const parts = assistantParts(message, model);
        return parts.length > 0 ? { role: "model", parts } : null;
      });
      if (content) contents.push(content);
    } else {
      let end = i;
      while (end < list.length && list[end]!.role === "toolResult") end++;
      const start = i;
      i = end - 1;
      if (hasFunctionResponse(contents[contents.length - 1])) {
        // Rare: results merge into an earlier content (a skipped message between two runs).
        const last = contents.pop() as Content;
        contents.push({ role: last.role, parts: [...last.parts] });
        for (let j = start; j < end; j++) addToolResult(contents, list[j] as ToolResultMessage, model);
        continue;
      }
      const cached = toolRunContents.getValid(
        config,
        message,
        (value) => sameRun(value.run, list, start, end),
        () => {
          const run = list.slice(start, end) as ToolResultMessage[];
          const runContents: Content[] = [];
          for (const result of run) addToolResult(runContents, result, model);
          return { run, contents: runContents };
        },
      );
      for (const content of cached.contents) contents.push(content);
    }
  }

  const body: Record<string, unknown> = { contents };
  const system = resolveSystemPrompt(header, notRecordedLabels);
  if (system !== null) body.systemInstruction = { parts: [{ text: system }] };
  const tools = resolveTools(input, notRecordedLabels);
  if (tools !== null) {
    const converted = isNotRecorded(tools) ? tools : toolsWire.get("tools", tools, () => convertTools(tools));
    if (converted !== null) body.tools = converted;
  }

  const extraGeneration =
    header?.api === "google-generative-ai" && isObject(header.extraSettings.generationConfig)
      ? header.extraSettings.generationConfig
      : {};
  const generationConfig: Part = { ...extraGeneration, maxOutputTokens: resolveMaxTokens(input) };
  const thinking = thinkingConfig(model, input.thinkingLevel);
  if (thinking) generationConfig.thinkingConfig = thinking;
  body.generationConfig = generationConfig;

  appendExtraSettings(body, header, "google-generative-ai");
  return { body, notRecorded: notRecordedLabels, adjustments: prepared.adjustments };
}

function detect(body: Record<string, unknown>): boolean {
  return Array.isArray(body.contents);
}

function extractHeader(body: Record<string, unknown>, source: string): RequestHeader {
  const instruction = body.systemInstruction;
  const systemPrompt =
    typeof instruction === "string" ? instruction : isObject(instruction) ? textOfContent(instruction.parts) : undefined;
  const extraSettings = collectExtraSettings(body, DERIVED_KEYS);
  const generation = isObject(body.generationConfig) ? body.generationConfig : {};
  const extraGeneration = collectExtraSettings(generation, DERIVED_GENERATION_KEYS);
  if (Object.keys(extraGeneration).length > 0) extraSettings.generationConfig = extraGeneration;

  const header: RequestHeader = { api: "google-generative-ai", systemPrompt: systemPrompt ?? "", extraSettings, source };
  if (Array.isArray(body.tools)) {
    header.tools = body.tools
      .filter(isObject)
      .flatMap((group) => (Array.isArray(group.functionDeclarations) ? group.functionDeclarations : []))
      .filter(isObject)
      .map((fn) => neutralTool(fn.name, fn.description, fn.parametersJsonSchema ?? fn.parameters))
      .filter((tool): tool is ToolDefinition => tool !== null);
  }
  const maxTokens = numberOrUndefined(generation.maxOutputTokens);
  if (maxTokens !== undefined) header.maxTokens = maxTokens;
  return header;
}

export const googleGenerativeAiSerializer: ProviderSerializer = {
  id: SERIALIZER_ID,
  label: "Google Gemini (generic mapping)",
  fidelity: "generic",
  detect,
  serialize,
  extractHeader,
};
