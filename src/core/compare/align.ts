// Aligning the turns of two sessions: turns are grouped into runs by the user message they answer
// (a prompt and its tool-loop turns), runs with the same text are matched by a longest common
// subsequence, the turns of matched runs pair by position inside the run, and the turns between
// two matches pair by position (left over turns stay one-sided). Work is runs(A) × runs(B), not
// turns × turns; above MAX_CELLS a greedy forward match replaces the LCS.
import type { AlignedPair } from "./types";

const MAX_CELLS = 4_000_000;

interface Run {
  key: string | null;
  /** 1-based turns of the run. */
  turns: number[];
}

/** Consecutive turns with the same user text form one run. */
export function runsOf(keys: readonly (string | null)[]): Run[] {
  const runs: Run[] = [];
  keys.forEach((key, index) => {
    const last = runs[runs.length - 1];
    if (last && last.key === key && key !== null) last.turns.push(index + 1);
    else runs.push({ key, turns: [index + 1] });
  });
  return runs;
}

function equalRuns(a: Run, b: Run): boolean {
  return a.key !== null && a.key === b.key;
}

/** Index pairs of matched runs, increasing on both sides. */
function matchRuns(a: readonly Run[], b: readonly Run[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return greedyMatch(a, b);
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] = equalRuns(a[i]!, b[j]!) ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (equalRuns(a[i]!, b[j]!)) {
      out.push([i, j]);
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  return out;
}

/** For very long sessions: each run of A matches the next run of B with the same text. */
function greedyMatch(a: readonly Run[], b: readonly Run[]): [number, number][] {
  const out: [number, number][] = [];
  let j = 0;
  for (let i = 0; i < a.length && j < b.length; i++) {
    let k = j;
    while (k < b.length && !equalRuns(a[i]!, b[k]!)) k++;
    if (k < b.length) {
      out.push([i, k]);
      j = k + 1;
    }
  }
  return out;
}

/** Pairs position by position; the longer side's rest stays one-sided. */
function byPosition(aTurns: readonly number[], bTurns: readonly number[], by: "user-message" | "position", out: AlignedPair[]): void {
  const common = Math.min(aTurns.length, bTurns.length);
  for (let k = 0; k < common; k++) out.push({ a: aTurns[k]!, b: bTurns[k]!, by });
  for (let k = common; k < aTurns.length; k++) out.push({ a: aTurns[k]!, b: null, by: "unmatched" });
  for (let k = common; k < bTurns.length; k++) out.push({ a: null, b: bTurns[k]!, by: "unmatched" });
}

/** The aligned pairs of two sessions, given each turn's user text (null: none). */
export function alignTurns(keysA: readonly (string | null)[], keysB: readonly (string | null)[]): AlignedPair[] {
  const a = runsOf(keysA);
  const b = runsOf(keysB);
  const matches = matchRuns(a, b);
  const out: AlignedPair[] = [];
  let i = 0;
  let j = 0;
  const gap = (untilA: number, untilB: number): void => {
    const aTurns = a.slice(i, untilA).flatMap((run) => run.turns);
    const bTurns = b.slice(j, untilB).flatMap((run) => run.turns);
    byPosition(aTurns, bTurns, "position", out);
  };
  for (const [mi, mj] of matches) {
    gap(mi, mj);
    byPosition(a[mi]!.turns, b[mj]!.turns, "user-message", out);
    i = mi + 1;
    j = mj + 1;
  }
  gap(a.length, b.length);
  return out;
}
