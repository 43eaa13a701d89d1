// What a captured Gemini CLI main request teaches that the chat file does not hold
// (docs/formats/gemini-cli.md): the system instruction, the tool declarations and the
// generationConfig, each kept verbatim as a session constant. A main request of the CLI is a
// Gemini body whose system instruction is a user-role content and whose tools are function
// declarations; its compression requests (no tools) teach nothing here — the compression policy
// reads them (policy/slots.ts).
import type { CaptureFact } from "../../model";
import { fact } from "../../captures/fact";
import { isObject } from "../../util/is-object";

export const GEMINI_SYSTEM_INSTRUCTION = "gemini-cli.systemInstruction";
export const GEMINI_TOOLS = "gemini-cli.tools";
export const GEMINI_GENERATION_CONFIG = "gemini-cli.generationConfig";

function isMainRequest(body: Record<string, unknown>): boolean {
  const system = body.systemInstruction;
  const tools = body.tools;
  return (
    Array.isArray(body.contents) &&
    isObject(system) &&
    Array.isArray(system.parts) &&
    Array.isArray(tools) &&
    tools.some((tool) => isObject(tool) && Array.isArray(tool.functionDeclarations)) &&
    isObject(body.generationConfig)
  );
}

export function learnGeminiCliCapture(body: Record<string, unknown>, source: string): CaptureFact[] {
  if (!isMainRequest(body)) return [];
  return [
    fact("session", GEMINI_SYSTEM_INSTRUCTION, "system instruction as sent", "$.systemInstruction", body.systemInstruction, source),
    fact("session", GEMINI_TOOLS, `tool declarations as sent (${(body.tools as unknown[]).length})`, "$.tools", body.tools, source),
    fact("session", GEMINI_GENERATION_CONFIG, "generationConfig as sent", "$.generationConfig", body.generationConfig, source),
  ];
}
