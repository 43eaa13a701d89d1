// Request fields of a Codex main request that the rollout cannot supply (docs/captures.md).
import type { NotDerivableField } from "../descriptor";

export const CODEX_NOT_DERIVABLE: readonly NotDerivableField[] = [
  {
    path: '$.client_metadata["x-codex-turn-metadata"]<json>.turn_started_at_unix_ms',
    reason:
      "the turn's start in milliseconds: the rollout records task_started.started_at in whole seconds, and no line's timestamp is that instant (the task_started line is written a few milliseconds later)",
  },
  { path: "$.input[0].id", reason: "the id Codex gives the base-instructions item is not written to the rollout", fromCapture: true },
  { path: "$.tools", reason: "the tool list is built from the configuration and features at send time; the rollout does not store it", fromCapture: true },
  { path: "$.input[0].content[0].text", reason: "the base instructions as sent (session_meta holds them before the plan-tool sections are adjusted)", fromCapture: true },
  { path: '$.client_metadata["x-codex-installation-id"]', reason: "the installation id (~/.codex/installation_id) is not in the rollout", fromCapture: true },
  { path: '$.client_metadata["x-codex-turn-metadata"]', reason: "installation id, agent name, sandbox and analytics flags are not in the rollout", fromCapture: true },
];
