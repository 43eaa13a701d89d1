// opencode's prune (CP-OC-26, `SessionCompaction.prune` in anomalyco/opencode
// packages/opencode/src/session/compaction.ts): walking back from the newest message, past the two
// newest user turns, every completed tool output is counted (chars/4, util/token.ts); once 40000
// tokens of newer output are protected, older outputs are marked for pruning; the walk stops at a
// summary assistant message or at an output already pruned; tool `skill` is never pruned. The
// marks are written (`state.time.compacted`) only when more than 20000 tokens would be freed.
// A pruned output is rendered `[Old tool result content cleared]` (chat.ts, serialize.ts).
import type { OcMessage } from "./rows";

const PRUNE_MINIMUM = 20_000;
const PRUNE_PROTECT = 40_000;
const PRUNE_PROTECTED_TOOLS = ["skill"];

/** util/token.ts `Token.estimate`: round(chars / 4). */
function estimate(text: string | undefined): number {
  return Math.max(0, Math.round((text ?? "").length / 4));
}

export interface PruneResult {
  rows: OcMessage[];
  /** Tokens of completed output walked (newest first, past the two newest turns). */
  total: number;
  /** Tokens the marked outputs hold. */
  pruned: number;
  /** True when the marks were written (pruned > PRUNE_MINIMUM). */
  applied: boolean;
  /** Row indexes whose parts were pruned. */
  rowIndexes: number[];
  parts: number;
}

export function pruneRows(rows: readonly OcMessage[], options: { protect?: number; minimum?: number; now?: number } = {}): PruneResult {
  const protect = options.protect ?? PRUNE_PROTECT;
  const minimum = options.minimum ?? PRUNE_MINIMUM;
  let total = 0;
  let pruned = 0;
  let turns = 0;
  const marks: { row: number; part: number }[] = [];
  walk: for (let m = rows.length - 1; m >= 0; m--) {
    const row = rows[m]!;
    if (row.info.role === "user") turns++;
    if (turns < 2) continue;
    if (row.info.role === "assistant" && row.info.summary) break;
    for (let k = row.parts.length - 1; k >= 0; k--) {
      const part = row.parts[k]!;
      if (part.type !== "tool" || part.state?.status !== "completed") continue;
      if (PRUNE_PROTECTED_TOOLS.includes(part.tool ?? "")) continue;
      if (part.state.time?.compacted) break walk;
      const tokens = estimate(part.state.output);
      total += tokens;
      if (total > protect) {
        pruned += tokens;
        marks.push({ row: m, part: k });
      }
    }
  }
  const applied = pruned > minimum;
  if (!applied) return { rows: rows.slice(), total, pruned, applied, rowIndexes: [], parts: 0 };
  const out = rows.map((row) => row);
  // The mark is a timestamp; any non-zero value reads as pruned.
  const now = options.now ?? 1;
  for (const { row, part } of marks) {
    const original = out[row]!;
    const parts = original.parts.slice();
    const p = parts[part]!;
    parts[part] = { ...p, state: { ...p.state, time: { ...p.state?.time, compacted: now } } };
    out[row] = { ...original, parts };
  }
  return { rows: out, total, pruned, applied, rowIndexes: [...new Set(marks.map((m) => m.row))].sort((a, b) => a - b), parts: marks.length };
}
