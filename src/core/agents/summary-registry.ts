// The agents whose summary pass runs without their readers: each listed by its id and summariser
// alone (the agent's `summary-agent.ts`), so that a caller that already knows each file's agent
// (`scan`'s worker threads, told at discovery) loads these and not every agent's reader, request
// builder and policies. Like the registry, only src/core/session/ reads this list; a test holds
// each entry equal to its agent's descriptor in the registry.
import type { AgentDescriptor } from "./descriptor";
import { claudeCodeSummaryAgent } from "./claude-code/summary-agent";

export const SUMMARY_ONLY_AGENTS: readonly Pick<AgentDescriptor, "id" | "summarize">[] = [claudeCodeSummaryAgent];
