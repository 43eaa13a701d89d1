// The analysis of a session that is one branch, its turns and compactions in file order (Qwen
// Code, Kimi Code, Gemini CLI): each compaction stands in the timeline before the first turn after
// it (those after the last turn at the end), each turn's summary says whether a compaction came
// just before it and whether its model differs from the turn before's, and the one branch ends at
// the file's last entry. The agent's fold gives its turns and compactions and describes each.
import type { ApiId, BranchInfo, CompactionEvent, ModelRef, ReaderWarning, RecordedUsage, Session, TimelineItem, TurnSummary } from "../model";
import type { SessionAnalysis } from "./types";

/** What the timeline says of a turn. */
export interface TurnPlace {
  model: ModelRef | null;
  /** A compaction came between the turn before and this one. */
  afterCompaction: boolean;
  /** Not the first turn, and its model is not the turn before's. */
  modelSwitched: boolean;
}

/** An agent's fold of a one-branch session: its turns and compactions in file order, and its warnings. */
export interface OneBranchFold<T extends { turn: number }> {
  turns: readonly T[];
  /** Each compaction with the number of turns before it. */
  compactions: readonly { turnsBefore: number }[];
  warnings: readonly ReaderWarning[];
}

/** How the agent describes its compactions (by their place in the fold's list) and its turns. */
export interface OneBranchDescription<T> {
  compactionEvent: (position: number) => CompactionEvent;
  modelOf: (turn: T) => ModelRef | null;
  summary: (turn: T, place: TurnPlace) => TurnSummary;
}

export function analyzeOneBranch<T extends { turn: number }>(session: Session, fold: OneBranchFold<T>, describe: OneBranchDescription<T>): SessionAnalysis {
  const turns: TurnSummary[] = [];
  const timeline: TimelineItem[] = [];
  let compactionAt = 0;
  let previousModel: string | null = null;
  for (const turn of fold.turns) {
    let afterCompaction = false;
    while (compactionAt < fold.compactions.length && fold.compactions[compactionAt]!.turnsBefore < turn.turn) {
      timeline.push(describe.compactionEvent(compactionAt));
      compactionAt += 1;
      afterCompaction = true;
    }
    timeline.push({ kind: "turn", turn: turn.turn });
    const model = describe.modelOf(turn);
    const modelId = model?.modelId ?? null;
    turns.push(describe.summary(turn, { model, afterCompaction, modelSwitched: turn.turn > 1 && previousModel !== modelId }));
    previousModel = modelId;
  }
  for (; compactionAt < fold.compactions.length; compactionAt++) timeline.push(describe.compactionEvent(compactionAt));
  const last = session.entries[session.entries.length - 1];
  const branches: BranchInfo[] = last ? [{ leafId: last.id, turns: fold.turns.length, timestamp: last.timestamp, label: null, isDefault: true }] : [];
  return { branches, leafId: last?.id ?? null, turns, timeline, warnings: fold.warnings.slice() };
}

/** What a turn's summary holds of the turn itself: the entry that closes it and its rebuilt request's size. */
export interface TurnFacts {
  turn: number;
  entry: { id: string; timestamp: string | null };
  api: ApiId;
  thinkingLevel: string;
  messageCount: number;
  /** The characters of the rebuilt request's context: its tokens are estimated as a quarter of them. */
  chars: number;
  usage: RecordedUsage | null;
}

/** A turn's summary from its facts and place; these agents record no stop reason, and no note or message is dropped. */
export function oneBranchSummary(facts: TurnFacts, place: TurnPlace): TurnSummary {
  return {
    turn: facts.turn,
    entryId: facts.entry.id,
    timestamp: facts.entry.timestamp,
    model: place.model,
    api: facts.api,
    thinkingLevel: facts.thinkingLevel,
    messageCount: facts.messageCount,
    estimatedTokens: Math.ceil(facts.chars / 4),
    chars: facts.chars,
    usage: facts.usage,
    stopReason: null,
    afterCompaction: place.afterCompaction,
    modelSwitched: place.modelSwitched,
    hasNote: false,
    hasDropped: false,
  };
}
