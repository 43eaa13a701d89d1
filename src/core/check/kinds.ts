// The finding kinds `contextscope check` reports, each with a stable id (what `--fail-on` takes),
// its severity and one line saying when it is reported. The ids are part of the CLI's contract:
// docs/cli.md lists this table; renaming one breaks users' CI configurations.
import type { PrefixCause } from "../prefix/types";

type CheckSeverity = "error" | "warning" | "info";

export interface CheckKind {
  id: string;
  severity: CheckSeverity;
  /** When the kind is reported, in one sentence. */
  description: string;
}

/**
 * Prefix-break causes that are expected: a compaction rewrites the history, a model switch starts
 * a new cache, a user edit (a branch switch: the user edited and re-sent an earlier message).
 * Every other cause is an unexpected break.
 */
export const EXPECTED_BREAK_CAUSES: ReadonlySet<PrefixCause> = new Set<PrefixCause>(["history-rewritten", "model-changed", "branch-switch"]);

const CHECK_KINDS = [
  {
    id: "unexpected-prefix-break",
    severity: "error",
    description: "a turn's request stops extending the previous one and the cause is not a compaction, a model switch or a user edit (a moved reply-language note is reported as note-moved instead)",
  },
  { id: "expected-prefix-break", severity: "info", description: "a turn's request breaks the prefix because of a compaction, a model switch or a user edit" },
  { id: "note-moved", severity: "warning", description: "a reply-language note was removed from, or inserted into, the part of the request the previous request had already sent, breaking the prefix" },
  { id: "compaction-no-reduction", severity: "error", description: "the first request after a recorded compaction is not smaller than the last request before it" },
  { id: "compaction-kept-mismatch", severity: "warning", description: "the agent's own compaction rule, re-run at a recorded compaction, keeps other messages than the record names" },
  { id: "cache-expired", severity: "info", description: "the gap since the previous request exceeds the provider's cache lifetime (the prefix had to be paid again)" },
  { id: "cache-read-mismatch", severity: "warning", description: "the cache read the session recorded disagrees with the simulation for a reason on the provider's side" },
  {
    id: "server-verdict-disagrees",
    severity: "warning",
    description: "the provider's own cache verdict recorded in the file names another change than the rebuilt requests show, or none where they show one",
  },
  { id: "unexplained-cache-miss", severity: "warning", description: "the recorded usage wrote most of the previous call's prompt to the cache again and neither the rebuilt requests, an expired cache nor the provider's verdict explains it" },
  { id: "server-verdict-agreement", severity: "info", description: "how often the provider's own cache verdicts recorded in the file agree with the rebuilt requests (once per session that records any)" },
  { id: "unfinished-summary-in-scope", severity: "error", description: "an errored or unfinished compaction summary is still sent in a request (CP-OC-8)" },
  { id: "secret-in-request", severity: "error", description: "a rebuilt summariser request of a recorded compaction holds a secret (CP-HA-24)" },
  { id: "user-text-in-system-slot", severity: "error", description: "a rebuilt summariser request puts user-controlled text in the system slot (CP-0-6)" },
  { id: "instructions-share-message-with-turns", severity: "warning", description: "a rebuilt summariser request holds instructions and turn content in one message (CP-HA-24)" },
  { id: "checkpoint-not-english-register", severity: "warning", description: "a rebuilt checkpoint instruction does not ask for the English engineering register (CP-DH-11)" },
  { id: "read-warning", severity: "warning", description: "the reader or the pipeline reported a problem at a line of the session file" },
  { id: "unknown-records", severity: "warning", description: "the session file holds lines of a record type this version of Contextscope does not read (one finding per type, at its first line)" },
] as const satisfies readonly CheckKind[];

export type CheckKindId = (typeof CHECK_KINDS)[number]["id"];

export const CHECK_KIND_IDS: readonly CheckKindId[] = CHECK_KINDS.map((kind) => kind.id);

export function checkKind(id: CheckKindId): CheckKind {
  return CHECK_KINDS.find((kind) => kind.id === id)!;
}

/** One finding: the turn it belongs to (null: the session as a whole), and where in the file. */
export interface CheckFinding {
  turn: number | null;
  kind: CheckKindId;
  severity: CheckSeverity;
  message: string;
  /** 1-based line of the session file (the turn's answering entry), null when unknown. */
  line: number | null;
  entryId: string | null;
  /** JSON path in the request, when the finding points into one. */
  path: string | null;
  /** The prefix-break cause, for break findings. */
  cause: PrefixCause | null;
  ruleId: string | null;
  /** The provider's own cache verdict the file records for the turn's call (`tools_changed`, `none`, …), else null. */
  serverVerdict: string | null;
  /** Input tokens that verdict says missed the cache, else null. */
  serverMissedTokens: number | null;
}
