// The agent registry: one line per agent, in file-detection order (the chat-message list last:
// it never looks like the JSONL formats before it). Only src/core/session/ reads this list; every
// other module asks the session folder, which asks the descriptors listed here.
import type { AgentDescriptor, PolicyOnlyAgent } from "./descriptor";
import { claudeCodeAgent } from "./claude-code/agent";
import { codexAgent } from "./codex/agent";
import { copilotCliAgent } from "./copilot-cli/agent";
import { crushAgent } from "./crush/agent";
import { deepseekHarnessAgent } from "./deepseek-harness/agent";
import { geminiCliAgent } from "./gemini-cli/agent";
import { hermesAgent } from "./hermes/agent";
import { kiloAgent } from "./kilo/agent";
import { kimiCodeAgent } from "./kimi-code/agent";
import { opencodeAgent } from "./opencode/agent";
import { piAgent } from "./pi/agent";
import { qwenCodeAgent } from "./qwen-code/agent";
import { stsAgent } from "./hf-sts/agent";

// Session traces (STS) first: a header naming its `harness` and no `cwd`, followed by message envelopes
// without an entry chain, is no other agent's, and its header would pass for pi's.
// deepseek-harness next: its header line `{"type":"session",…}` would otherwise pass for pi's.
// Qwen Code before Claude Code: its records carry Claude Code's uuid chain and session id.
// Kilo before opencode: kilo.db holds opencode's tables too. Crush before hermes: crush.db has
// hermes' `sessions` and `messages` tables too (and its own `files`).
export const AGENTS: readonly AgentDescriptor[] = [stsAgent, deepseekHarnessAgent, piAgent, kiloAgent, opencodeAgent, qwenCodeAgent, claudeCodeAgent, codexAgent, geminiCliAgent, kimiCodeAgent, copilotCliAgent, crushAgent, hermesAgent];

/** Agents whose sessions are not read here yet, but whose compaction policies the simulator runs on any session. */
export const POLICY_ONLY_AGENTS: readonly PolicyOnlyAgent[] = [];
