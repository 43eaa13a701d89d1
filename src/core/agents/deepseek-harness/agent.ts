// deepseek-harness: its session logs (`session.jsonl.zstd`, Zstandard frames, or plain
// `session.jsonl`), the requests rebuilt whole from the stored request headers and surface, the
// session-title and compaction requests, its recorded compactions (failed ones included), sub-agent
// and fork sessions as threads, and its compaction policy.
import type { AgentDescriptor } from "../descriptor";
import { messageChars } from "../../tokens/charEstimate";
import { auxiliaryEvents, buildAuxiliaryRequest } from "./auxiliary";
import { DEEPSEEK_HARNESS_FORMAT_ID } from "./events";
import { deepseekHarnessPipeline } from "./pipeline";
import { deepseekHarnessPolicy } from "./policy/policy";
import { deepseekHarnessReader } from "./reader";
import { deepseekHarnessRecorded } from "./recorded";
import { linkHarnessSessions } from "./threads";
import { iterateHarnessTurnRequests } from "./walk";

export const deepseekHarnessAgent = {
  id: DEEPSEEK_HARNESS_FORMAT_ID,
  label: "deepseek-harness",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "deepseek-harness", version: "0.1.0-rc.8" }],
  ruleDocs: [
    { prefix: "DH-", doc: "docs/formats/deepseek-harness.md" },
    { prefix: "CP-DH", doc: "docs/compaction-simulator.md" },
    { prefix: "DH-INF", doc: "docs/compaction-simulator.md" },
  ],
  readableFiles: [{ agent: "deepseek-harness", files: "session.jsonl.zstd or session.jsonl (~/.dsh/sessions/--<project>--/<session id>/), with its sub-agent and fork sessions" }],
  readers: [deepseekHarnessReader],
  estimateMessageChars: (message) => messageChars(message),
  pipeline: {
    ...deepseekHarnessPipeline,
    analyze: (session, options, hooks) => ({ ...deepseekHarnessPipeline.analyze(session, options, hooks), auxiliary: auxiliaryEvents(session) }),
    // One walk of every request, the surface and the wire list carried from one to the next.
    iterateTurnRequests: (session, options, hooks) => iterateHarnessTurnRequests(session, options, hooks),
  },
  policies: [deepseekHarnessPolicy],
  recorded: deepseekHarnessRecorded,
  auxiliary: {
    build: buildAuxiliaryRequest,
    synthesizedTexts: () => [],
  },
  // A session opened with its sub-agent and fork sessions: they become its threads.
  linkFiles: (sessions) => linkHarnessSessions(sessions),
  // The pipeline records each request's usage in the shared shape (the harness's counts are disjoint).
  usageSource: "pi",
  // Every request/header holds the rendered system prompt and the tool schemas.
  recordsSystemAndTools: true,
  options: [],
} satisfies AgentDescriptor;
