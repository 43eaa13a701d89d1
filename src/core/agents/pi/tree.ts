// The entry tree of a pi/senpi session (PI-F7, PI-P1, PI-P2, PI-P7): entries indexed by id,
// children counts, leaves (branches), the path from a leaf to the root with the cycle guard,
// labels and the session name. Built once per Session (see pipeline cache) in linear time.
import type { BranchInfo, ReaderWarning, Session, SessionEntry } from "../../model";

export interface SessionTree {
  /** Entry by id. With reused ids the later entry wins, as in pi's index. */
  byId: Map<string, SessionEntry>;
  childCount: Map<string, number>;
  /** Current label per target entry id (`label` entries; the last one wins, empty clears). */
  labels: Map<string, string>;
  /** `session_info.name`, the last one in file order. */
  sessionName: string | null;
  /** PI-P1 default leaf: the last entry in file order. */
  defaultLeafId: string | null;
  /** Problems found while indexing (duplicate ids, unknown parents), with entry lines. */
  warnings: ReaderWarning[];
  entries: SessionEntry[];
}

export function buildTree(session: Session): SessionTree {
  const byId = new Map<string, SessionEntry>();
  const childCount = new Map<string, number>();
  const labels = new Map<string, string>();
  const warnings: ReaderWarning[] = [];
  let sessionName: string | null = null;
  for (const entry of session.entries) {
    if (byId.has(entry.id)) {
      warnings.push({ line: entry.line, reason: `entry id ${entry.id} is used more than once; the later entry wins` });
    }
    byId.set(entry.id, entry);
    if (entry.type === "label" && typeof entry.raw.targetId === "string") {
      const label = entry.raw.label;
      if (typeof label === "string" && label !== "") labels.set(entry.raw.targetId, label);
      else labels.delete(entry.raw.targetId);
    } else if (entry.type === "session_info" && typeof entry.raw.name === "string") {
      sessionName = entry.raw.name;
    }
  }
  for (const entry of session.entries) {
    if (byId.get(entry.id) !== entry || entry.parentId === null) continue;
    if (!byId.has(entry.parentId)) {
      warnings.push({ line: entry.line, reason: `parent ${entry.parentId} of entry ${entry.id} is not in the file` });
      continue;
    }
    childCount.set(entry.parentId, (childCount.get(entry.parentId) ?? 0) + 1);
  }
  const last = session.entries[session.entries.length - 1];
  return {
    byId,
    childCount,
    labels,
    sessionName,
    defaultLeafId: last ? last.id : null,
    warnings,
    entries: session.entries,
  };
}

/**
 * The leaf to use for a requested id: an existing id → that entry; otherwise (absent or
 * unknown) → the default leaf (PI-P1). Returns null only for a session without entries.
 */
export function resolveLeafId(tree: SessionTree, requested: string | null | undefined): string | null {
  if (requested && tree.byId.has(requested)) return requested;
  return tree.defaultLeafId;
}

export interface TreePath {
  /** Entries root first, ending at the leaf. */
  entries: SessionEntry[];
  /** Set when the cycle guard stopped the walk (PI-P2): the id visited twice. */
  cycleAt: string | null;
}

/**
 * PI-P2: follow parentId from the leaf to the root, then reverse. Stops at the first entry
 * visited twice (senpi's cycle guard, applied in both profiles).
 */
export function pathToRoot(tree: SessionTree, leafId: string | null): TreePath {
  const reversed: SessionEntry[] = [];
  const seen = new Set<string>();
  let cycleAt: string | null = null;
  let current = leafId === null ? undefined : tree.byId.get(leafId);
  while (current) {
    if (seen.has(current.id)) {
      cycleAt = current.id;
      break;
    }
    seen.add(current.id);
    reversed.push(current);
    current = current.parentId === null ? undefined : tree.byId.get(current.parentId);
  }
  return { entries: reversed.reverse(), cycleAt };
}

export function cycleWarning(path: Pick<TreePath, "cycleAt">, tree: SessionTree): ReaderWarning | null {
  if (path.cycleAt === null) return null;
  const entry = tree.byId.get(path.cycleAt);
  return {
    line: entry ? entry.line : 0,
    reason: `cycle in the entry tree at ${path.cycleAt}: the path stops there (PI-P2 cycle guard)`,
  };
}

export function isAssistantEntry(entry: SessionEntry): boolean {
  if (entry.type !== "message") return false;
  const message = entry.raw.message;
  return typeof message === "object" && message !== null && (message as { role?: unknown }).role === "assistant";
}

/**
 * Branches for the UI (PI-P7): every entry without children is a leaf. Counts of assistant
 * messages and the nearest label are propagated from parents, so the whole list is linear.
 */
export function listBranches(tree: SessionTree): BranchInfo[] {
  const turnsById = new Map<string, number>();
  const labelById = new Map<string, string | null>();

  // Resolves one entry's aggregates, walking up iteratively until a known ancestor.
  const resolve = (start: SessionEntry): void => {
    const stack: SessionEntry[] = [];
    const onStack = new Set<string>();
    let current: SessionEntry | undefined = start;
    while (current && !turnsById.has(current.id) && !onStack.has(current.id)) {
      stack.push(current);
      onStack.add(current.id);
      current = current.parentId === null ? undefined : tree.byId.get(current.parentId);
    }
    let baseTurns = current && turnsById.has(current.id) ? (turnsById.get(current.id) as number) : 0;
    let baseLabel = current && labelById.has(current.id) ? (labelById.get(current.id) as string | null) : null;
    for (let i = stack.length - 1; i >= 0; i--) {
      const entry = stack[i] as SessionEntry;
      baseTurns += isAssistantEntry(entry) ? 1 : 0;
      baseLabel = tree.labels.get(entry.id) ?? baseLabel;
      turnsById.set(entry.id, baseTurns);
      labelById.set(entry.id, baseLabel);
    }
  };

  const branches: BranchInfo[] = [];
  for (const entry of tree.entries) {
    if (tree.byId.get(entry.id) !== entry || (tree.childCount.get(entry.id) ?? 0) > 0) continue;
    resolve(entry);
    branches.push({
      leafId: entry.id,
      turns: turnsById.get(entry.id) ?? 0,
      timestamp: entry.timestamp,
      label: labelById.get(entry.id) ?? null,
      isDefault: entry.id === tree.defaultLeafId,
    });
  }
  return branches;
}
