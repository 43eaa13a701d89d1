// deepseek-harness: its compaction policy, which the simulator runs on any agent's session. Its
// session files are not read here yet, so the descriptor holds the policy only.
import type { PolicyOnlyAgent } from "../descriptor";
import { deepseekHarnessPolicy } from "./policy/policy";

export const deepseekHarnessAgent = {
  id: "deepseek-harness",
  label: "deepseek-harness",
  policies: [deepseekHarnessPolicy],
} satisfies PolicyOnlyAgent;
