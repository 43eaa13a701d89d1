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
  /** Parent ids named by an entry but not in the file (each has a warning). */
  missingParents: Set<string>;
  /**
   * listBranches' turn counts and nearest labels of the leaves and forks it walked past (where
   * another walk can stop), kept while the tree grows: an appended entry changes neither for the
   * entries before it, unless it is a label (then cleared).
   */
  branchMemo?: { turnsById: Map<string, number>; labelById: Map<string, string | null> };
}

export function buildTree(session: Session): SessionTree {
  const byId = new Map<string, SessionEntry>();
  const childCount = new Map<string, number>();
  const labels = new Map<string, string>();
  const warnings: ReaderWarning[] = [];
  const tree: SessionTree = { byId, childCount, labels, sessionName: null, defaultLeafId: null, warnings, entries: session.entries, missingParents: new Set() };
  let reused = false;
  for (const entry of session.entries) {
    const size = byId.size;
    byId.set(entry.id, entry);
    if (byId.size === size) {
      reused = true;
      warnings.push({ line: entry.line, reason: `entry id ${entry.id} is used more than once; the later entry wins` });
    }
    if (entry.type === "label" || entry.type === "session_info") indexSettings(tree, entry);
  }
  for (const entry of session.entries) {
    // Only a reused id leaves an entry that is not its id's.
    if (reused && byId.get(entry.id) !== entry) continue;
    countChild(tree, entry);
  }
  const last = session.entries[session.entries.length - 1];
  tree.defaultLeafId = last ? last.id : null;
  return tree;
}

/** Labels and the session name an entry sets. */
function indexSettings(tree: SessionTree, entry: SessionEntry): void {
  if (entry.type === "label" && typeof entry.raw.targetId === "string") {
    const label = entry.raw.label;
    if (typeof label === "string" && label !== "") tree.labels.set(entry.raw.targetId, label);
    else tree.labels.delete(entry.raw.targetId);
  } else if (entry.type === "session_info" && typeof entry.raw.name === "string") {
    tree.sessionName = entry.raw.name;
  }
}

/** The entry counted as its parent's child, or its missing parent named. */
function countChild(tree: SessionTree, entry: SessionEntry): void {
  if (entry.parentId === null) return;
  if (!tree.byId.has(entry.parentId)) {
    tree.warnings.push({ line: entry.line, reason: `parent ${entry.parentId} of entry ${entry.id} is not in the file` });
    tree.missingParents.add(entry.parentId);
    return;
  }
  tree.childCount.set(entry.parentId, (tree.childCount.get(entry.parentId) ?? 0) + 1);
}

/**
 * The tree of `session` grown by the entries after the first `tree.entries.length`, in place, as
 * `buildTree(session)` would give it. False (and the tree left unusable) when an appended entry
 * changes what earlier entries mean: an id used before (the later entry wins, so earlier paths
 * change) or an id an earlier entry named as its missing parent. Build the tree again then.
 */
export function extendTree(tree: SessionTree, session: Session): boolean {
  const appended = session.entries.slice(tree.entries.length);
  for (const entry of appended) {
    if (tree.byId.has(entry.id) || tree.missingParents.has(entry.id)) return false;
  }
  // Each appended id is new, so within the appended part too a repeated id sends us back.
  const ids = new Set<string>();
  for (const entry of appended) {
    if (ids.has(entry.id)) return false;
    ids.add(entry.id);
  }
  for (const entry of appended) {
    tree.byId.set(entry.id, entry);
    indexSettings(tree, entry);
    if (entry.type === "label") delete tree.branchMemo;
  }
  for (const entry of appended) countChild(tree, entry);
  const last = session.entries[session.entries.length - 1];
  tree.defaultLeafId = last ? last.id : null;
  tree.entries = session.entries;
  return true;
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
 * messages and the nearest label are found walking up from each leaf to an entry another walk
 * kept (a leaf, or a fork another leaf meets its path at), so the whole list is linear; the walk
 * keeps only those entries' figures, not one per entry of a long branch.
 */
export function listBranches(tree: SessionTree): BranchInfo[] {
  tree.branchMemo ??= { turnsById: new Map(), labelById: new Map() };
  const memo = tree.branchMemo;
  const branches: BranchInfo[] = [];
  for (const entry of tree.entries) {
    if (tree.byId.get(entry.id) !== entry || (tree.childCount.get(entry.id) ?? 0) > 0) continue;
    if (!resolveUp(tree, memo, entry)) resolveThroughCycle(tree, memo, entry);
    branches.push({
      leafId: entry.id,
      turns: memo.turnsById.get(entry.id) ?? 0,
      timestamp: entry.timestamp,
      label: memo.labelById.get(entry.id) ?? null,
      isDefault: entry.id === tree.defaultLeafId,
    });
  }
  return branches;
}

type BranchMemo = NonNullable<SessionTree["branchMemo"]>;

/** A fork the walk passed: its place on the walk and the assistant messages met below it. */
interface PassedFork {
  entry: SessionEntry;
  step: number;
  turnsBelow: number;
}

/**
 * The figures of `start` (and of the forks on its way up), walking up to a kept entry or the
 * root. False, with nothing kept, when the walk is longer than the tree has entries: it went
 * round a cycle, which `resolveThroughCycle` treats as the walk of every entry always did.
 */
function resolveUp(tree: SessionTree, memo: BranchMemo, start: SessionEntry): boolean {
  const { turnsById, labelById } = memo;
  const hasLabels = tree.labels.size > 0;
  let turns = 0;
  // The nearest label and the step it was met at (labels and forks are few: lists, not maps).
  let label: string | null = null;
  let labelStep = -1;
  let forks: PassedFork[] | null = null;
  let laterLabels: { step: number; label: string }[] | null = null;
  let step = 0;
  let current: SessionEntry | undefined = start;
  while (current && !turnsById.has(current.id)) {
    if (step > tree.byId.size) return false;
    if (current !== start && (tree.childCount.get(current.id) ?? 0) > 1) (forks ??= []).push({ entry: current, step, turnsBelow: turns });
    if (isAssistantEntry(current)) turns++;
    if (hasLabels) {
      const found = tree.labels.get(current.id);
      if (found !== undefined) {
        if (labelStep < 0) {
          label = found;
          labelStep = step;
        } else (laterLabels ??= []).push({ step, label: found });
      }
    }
    step++;
    current = current.parentId === null ? undefined : tree.byId.get(current.parentId);
  }
  const baseTurns = current ? turnsById.get(current.id)! : 0;
  const baseLabel = current ? (labelById.get(current.id) ?? null) : null;
  turnsById.set(start.id, baseTurns + turns);
  labelById.set(start.id, labelStep >= 0 ? label : baseLabel);
  for (const fork of forks ?? []) {
    turnsById.set(fork.entry.id, baseTurns + turns - fork.turnsBelow);
    // The fork's nearest label: the first met at or above it.
    let forkLabel = baseLabel;
    if (labelStep >= fork.step) forkLabel = label;
    else for (const later of laterLabels ?? []) if (later.step >= fork.step) {
      forkLabel = later.label;
      break;
    }
    labelById.set(fork.entry.id, forkLabel);
  }
  return true;
}

/** `start`'s figures when its way up goes round a cycle: every entry walked is kept, counted once. */
function resolveThroughCycle(tree: SessionTree, memo: BranchMemo, start: SessionEntry): void {
  const { turnsById, labelById } = memo;
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
}
