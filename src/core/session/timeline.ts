// The timeline shown to users (app and CLI): the format pipeline's turns and compactions with the
// auxiliary requests of `SessionAnalysis.auxiliary` (opencode's title and summariser requests,
// FM-OC-15, CP-OC-17) placed where the agent sent them. Pure and linear in the timeline size.
import type { AuxiliaryRequestEvent, TimelineItem } from "../model";

/**
 * Merges auxiliary events into `timeline`. An event with `beforeTurn` N goes right before the row
 * of turn N, after any compaction event of that turn (the summariser request follows the
 * compaction trigger); events with `beforeTurn` null, or whose turn is not on the timeline, go at
 * the end. Auxiliary events already in `timeline` are kept once.
 */
export function timelineWithAuxiliary(timeline: readonly TimelineItem[], auxiliary: readonly AuxiliaryRequestEvent[] | undefined): TimelineItem[] {
  const present = timeline.filter((item) => item.kind !== "auxiliary");
  if (!auxiliary || auxiliary.length === 0) return present;
  const byTurn = new Map<number, AuxiliaryRequestEvent[]>();
  const atEnd: AuxiliaryRequestEvent[] = [];
  const turns = new Set<number>();
  for (const item of present) if (item.kind === "turn") turns.add(item.turn);
  for (const event of auxiliary) {
    if (event.beforeTurn === null || !turns.has(event.beforeTurn)) {
      atEnd.push(event);
      continue;
    }
    const list = byTurn.get(event.beforeTurn) ?? [];
    list.push(event);
    byTurn.set(event.beforeTurn, list);
  }
  const merged: TimelineItem[] = [];
  for (const item of present) {
    if (item.kind === "turn") merged.push(...(byTurn.get(item.turn) ?? []));
    merged.push(item);
  }
  merged.push(...atEnd);
  return merged;
}
