// opencode's tail selection (compaction-policies.md CP-OC-14, CP-OC-15): turns are user messages
// (not compaction requests) up to the next user message; the newest turns are kept whole while
// they fit the preserve budget; the first that does not fit may be split at an interior message
// from which the remainder fits; a tail that starts at the first message means no tail.
import { compactionPart, type OcMessage } from "./rows";
import { rowToChat } from "./chat";

/**
 * CP-OC-14 estimate of one stored message: ceil(chars / 4) of the Chat Completions messages it
 * sends (JSON, uncapped tool output). Calibrated on the fixture's recorded `tail_start_id`s: the
 * bare content (text, tool input, output) would keep prompt 3 whole in compaction 2, and the
 * summariser serialisation (tool output capped at 2000) would keep prompt 1 whole in compaction 1;
 * opencode did neither. [INF: OC-INF-TAIL-MEASURE]
 */
export function rowTokens(row: OcMessage): number {
  const chars = rowToChat(row).reduce((sum, message) => sum + JSON.stringify(message).length, 0);
  return Math.ceil(chars / 4);
}

export interface TailChoice {
  /** Position in `scope` where the tail starts, or -1 for no tail. */
  tailAt: number;
  /** The stored id that opencode writes as `tail_start_id`. */
  tailStartId: string | null;
  tailTokens: number;
  splitTurn: boolean;
  keptTurns: number;
}

export function selectTail(rows: readonly OcMessage[], scope: readonly number[], budget: number, tailTurns: number | null = null): TailChoice {
  const none: TailChoice = { tailAt: -1, tailStartId: null, tailTokens: 0, splitTurn: false, keptTurns: 0 };
  if (tailTurns !== null && tailTurns <= 0) return none;
  const starts: number[] = [];
  scope.forEach((index, position) => {
    const row = rows[index] as OcMessage;
    if (row.info.role === "user" && !compactionPart(row)) starts.push(position);
  });
  const sizes = scope.map((index) => rowTokens(rows[index] as OcMessage));
  let total = 0;
  let tailAt = -1;
  let keptTurns = 0;
  let splitTurn = false;
  for (let t = starts.length - 1; t >= 0; t--) {
    if (tailTurns !== null && keptTurns >= tailTurns) break;
    const start = starts[t] as number;
    const end = t + 1 < starts.length ? (starts[t + 1] as number) : scope.length;
    const size = sizes.slice(start, end).reduce((a, b) => a + b, 0);
    if (total + size <= budget) {
      total += size;
      tailAt = start;
      keptTurns++;
      continue;
    }
    // Split: the earliest interior message from which the rest of the turn still fits.
    // [INF: OC-INF-TAIL-SPLIT] (the spec's "latest interior message" read as the boundary)
    let remainder = 0;
    let splitAt = -1;
    for (let k = end - 1; k > start; k--) {
      remainder += sizes[k] as number;
      if (total + remainder > budget) break;
      splitAt = k;
    }
    if (splitAt >= 0) {
      total += sizes.slice(splitAt, end).reduce((a, b) => a + b, 0);
      tailAt = splitAt;
      splitTurn = true;
    }
    break;
  }
  if (tailAt <= 0) return none;
  return { tailAt, tailStartId: (rows[scope[tailAt] as number] as OcMessage).info.id, tailTokens: total, splitTurn, keptTurns };
}
