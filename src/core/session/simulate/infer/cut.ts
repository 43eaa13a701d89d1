// The keep-recent budget a recorded cut pins down. The policy's own cut code runs at the recorded
// compaction with trial budgets; a larger budget keeps as many messages or more (until it covers
// everything and the policy stops cutting), so the values that keep exactly what the agent kept
// form one interval: a scan over budgets growing by 1.25× brackets its edges, two binary searches
// find them (about 60–90 simulations per compaction, each cached). Using the policy's code, not a formula, keeps the interval
// true to whatever else the cut depends on (valid cut points, split turns, tool pairs).
import type { Session } from "../../../model";
import type { RecordedCompactionPoint } from "../../../agents/descriptor";
import { simulatedKept } from "../recorded";
import type { CutInference, SimulationResult } from "../../../simulate/types";
import type { SettingBound } from "./types";

/** Highest budget tried: above it a session's whole context is kept anyway. */
const CUT_SEARCH_MAX = 1 << 22;

/**
 * Ratio between neighbouring budgets of the scan. Fine enough not to step over a cut that only a
 * narrow band of budgets gives (opencode's tail at 2048–4096 tokens is one).
 */
const GRID_STEP = 1.25;

interface CutInterval {
  min: number;
  /** null: every budget from `min` up keeps the same messages. */
  max: number | null;
  bounds: SettingBound[];
}

export type CutOutcome = { ok: true; interval: CutInterval } | { ok: false; reason: string };

/**
 * Where a kept list starts, as a number that falls when more is kept: the session entry index of
 * its first id, or minus its length when its ids are not session entries (Codex history items).
 */
function keptPosition(session: Session, index: Map<string, number>, kept: readonly string[], by: CutInference["position"]): number | null {
  if (kept.length === 0) return null;
  if (by === "count") return -kept.length;
  const first = index.get(kept[0]!);
  return first !== undefined ? first : -kept.length;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** Lowest value in [lo, hi] where `test` holds (test is monotone false → true), or null. */
function lowestTrue(lo: number, hi: number, test: (value: number) => boolean): number | null {
  if (lo > hi || !test(hi)) return null;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function inferCut(
  session: Session,
  point: RecordedCompactionPoint,
  compaction: number,
  cut: CutInference,
  run: (value: number) => SimulationResult,
): CutOutcome {
  const index = new Map(session.entries.map((entry, i) => [entry.id, i]));
  const recorded = point.recordedKept;
  // A record that names one id names where the kept part starts (pi's firstKeptEntryId, also when
  // another agent's policy runs on the file): then "keeps more" is where it starts, whatever the policy says.
  const by: CutInference["position"] = recorded.length === 1 ? "first" : cut.position;
  const target = keptPosition(session, index, recorded, by);
  if (target === null) return { ok: false, reason: `compaction ${compaction}: the record names nothing as kept` };
  const cache = new Map<number, string[]>();
  const keptAt = (value: number): string[] => {
    let kept = cache.get(value);
    if (!kept) {
      kept = simulatedKept(session, run(value));
      cache.set(value, kept);
    }
    return kept;
  };
  // An empty kept list is "no cut" (no tail, or nothing to compact): it counts as keeping less
  // than any cut, so it never satisfies "keeps at least as much".
  const keepsAtLeast = (v: number): boolean => {
    const position = keptPosition(session, index, keptAt(v), by);
    return position !== null && position <= target;
  };
  const matches = (v: number): boolean => same(keptAt(v), recorded);
  // How a kept list is named in a reason: where it starts, or (by count) how many it keeps.
  const keeps = (v: number): string => {
    const kept = keptAt(v);
    if (by === "count") return `${kept.length} messages (the record keeps ${recorded.length})`;
    return `from ${kept[0] ?? "nothing"}`;
  };
  const name = cut.parameter;
  // A coarse scan first: a policy can stop cutting at all once the budget covers
  // everything, so "keeps at least as much" need not hold for every larger budget.
  const grid = [0];
  for (let v = 1; v <= CUT_SEARCH_MAX; v = Math.max(v + 1, Math.round(v * GRID_STEP))) grid.push(v);
  const k = grid.findIndex(keepsAtLeast);
  if (k < 0) return { ok: false, reason: `compaction ${compaction}: no ${name} up to ${CUT_SEARCH_MAX} keeps as much as the agent kept (from ${recorded[0]})` };
  const low = k === 0 ? 0 : lowestTrue(grid[k - 1]! + 1, grid[k]!, keepsAtLeast)!;
  if (!matches(low)) {
    const below = low > 0 ? `; ${low - 1} keeps ${keeps(low - 1)}` : "";
    return { ok: false, reason: `compaction ${compaction}: no ${name} reproduces the recorded cut at ${recorded[0]}: ${low} keeps ${keeps(low)}${below}` };
  }
  // The first budget above `low` that no longer keeps the recorded messages.
  const j = grid.findIndex((g) => g > low && !matches(g));
  let max: number | null = null;
  if (j >= 0) max = lowestTrue(Math.max(low, grid[j - 1]!) + 1, grid[j]!, (v) => !matches(v))! - 1;
  const bounds: SettingBound[] = [];
  const where = { compaction, entryId: point.entryId, turn: point.turn };
  if (low > 0) bounds.push({ side: "min", value: low, ...where, reason: `compaction ${compaction}: ${name} ${low - 1} keeps less than the recorded cut (from ${keptAt(low - 1)[0] ?? "nothing"})` });
  if (max !== null) bounds.push({ side: "max", value: max, ...where, reason: `compaction ${compaction}: ${name} ${max + 1} no longer keeps the recorded messages (${keptAt(max + 1)[0] ? `keeps from ${keptAt(max + 1)[0]}` : "no cut"})` });
  return { ok: true, interval: { min: low, max, bounds } };
}
