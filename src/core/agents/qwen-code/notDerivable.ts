// Request fields of a Qwen Code main request that the chat file cannot supply (docs/captures.md,
// docs/formats/qwen-code.md).
import type { NotDerivableField } from "../descriptor";

export const QWEN_NOT_DERIVABLE: readonly NotDerivableField[] = [
  { path: "$.messages[0]", reason: "the system prompt is built at send time (getCoreSystemPrompt); the chat file does not store it", fromCapture: true },
  { path: "$.tools", reason: "the tool schemas come from the configuration at send time; the chat file does not store them", fromCapture: true },
  {
    path: "$.max_tokens",
    reason: "max_tokens starts from Qwen Code's output ceiling (its settings or model table), which the chat file does not store; the clamp to the room the window leaves is rebuilt from the recorded token counts",
    fromCapture: true,
  },
  {
    // The startup context lists the working folder as it is when a process starts. A file a shell
    // command made (`printf … > SUMMARY.md`) is in that listing, but the chat file records only the
    // command, not the files it made; files written with Qwen Code's own tools are rebuilt.
    path: "$.messages[*].content[*].text",
    reason: "the startup context's folder listing shows the folder when the process started; files made by shell commands are in it, and the chat file does not record them",
    onlyWithin: "Here is the folder structure of the current working directories:\\n[\\s\\S]*?(?=</system-reminder>)",
  },
];
