// A followed Claude Code transcript that grows by appended lines: its caches move to the new
// Session value and take the new lines (docs/live.md). The index goes first and decides
// (session-index.ts `carryClaudeIndex`): when the appended lines change how earlier lines read,
// nothing moves and the grown session builds its caches from its first line.
import type { Session } from "../../model";
import { carryClaudeRecords } from "./request-records";
import { carryClaudeIndex, getClaudeIndex } from "./session-index";
import { carryClaudeBranches } from "./turns";

export function carryClaudeCaches(previous: Session, next: Session): void {
  const appended = carryClaudeIndex(previous, next);
  if (appended === null) return;
  const index = getClaudeIndex(next);
  carryClaudeBranches(previous, next, appended, index);
  carryClaudeRecords(previous, next, appended, index);
}
