// Request fields of a Gemini CLI main request that the chat file cannot supply (docs/captures.md,
// docs/formats/gemini-cli.md).
import type { NotDerivableField } from "../descriptor";

export const GEMINI_NOT_DERIVABLE: readonly NotDerivableField[] = [
  {
    path: "$.contents[*].parts[*].thoughtSignature",
    reason:
      "the thought signature a thinking model returns with a function call is kept in the CLI's memory and sent back, but not written to the chat file; the rebuild sends the CLI's synthetic signature where the CLI adds one",
  },
  { path: "$.systemInstruction", reason: "the system instruction is built at send time (memory files, skills, environment); the chat file does not store it", fromCapture: true },
  { path: "$.tools", reason: "the tool declarations come from the configuration at send time; the chat file does not store them", fromCapture: true },
  { path: "$.generationConfig", reason: "the model configuration (temperature, topP, topK, thinking budget) is resolved at send time; the chat file does not store it", fromCapture: true },
];
