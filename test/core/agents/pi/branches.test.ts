// listBranches against the walk it replaced (every entry's figures kept on the way up), on random
// trees with forks, labels, reused ids, missing parents and cycles; and what the walk keeps.
import { describe, expect, it } from "vitest";
import type { BranchInfo, Session, SessionEntry } from "../../../../src/core/model";
import { buildTree, extendTree, isAssistantEntry, listBranches, type SessionTree } from "../../../../src/core/agents/pi/tree";
import { seededRandom } from "../../../../src/core/util/seeded-random";

function entry(id: string, parentId: string | null, type: string, line: number, raw: Record<string, unknown> = {}): SessionEntry {
  return { id, parentId, type, timestamp: null, line, raw: { type, id, parentId, ...raw } };
}

function sessionOf(entries: SessionEntry[]): Session {
  return { entries } as unknown as Session;
}

/** The former listBranches: walks up to a known entry, then keeps every entry's figures. */
function referenceBranches(tree: SessionTree): BranchInfo[] {
  const turnsById = new Map<string, number>();
  const labelById = new Map<string, string | null>();
  const resolve = (start: SessionEntry): void => {
    const stack: SessionEntry[] = [];
    const onStack = new Set<string>();
    let current: SessionEntry | undefined = start;
    while (current && !turnsById.has(current.id) && !onStack.has(current.id)) {
      stack.push(current);
      onStack.add(current.id);
      current = current.parentId === null ? undefined : tree.byId.get(current.parentId);
    }
    let turns = current && turnsById.has(current.id) ? turnsById.get(current.id)! : 0;
    let label = current && labelById.has(current.id) ? labelById.get(current.id)! : null;
    for (let i = stack.length - 1; i >= 0; i--) {
      const item = stack[i]!;
      turns += isAssistantEntry(item) ? 1 : 0;
      label = tree.labels.get(item.id) ?? label;
      turnsById.set(item.id, turns);
      labelById.set(item.id, label);
    }
  };
  const branches: BranchInfo[] = [];
  for (const item of tree.entries) {
    if (tree.byId.get(item.id) !== item || (tree.childCount.get(item.id) ?? 0) > 0) continue;
    resolve(item);
    branches.push({ leafId: item.id, turns: turnsById.get(item.id) ?? 0, timestamp: item.timestamp, label: labelById.get(item.id) ?? null, isDefault: item.id === tree.defaultLeafId });
  }
  return branches;
}

/** A random tree: messages hanging off earlier (sometimes later, reused or missing) ids, labels among them. */
function randomEntries(seed: number, count: number): SessionEntry[] {
  const random = seededRandom(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const entries: SessionEntry[] = [];
  for (let i = 0; i < count; i++) {
    const id = random() < 0.05 && i > 0 ? entries[pick(i)]!.id : `e${i}`;
    const roll = random();
    // Mostly the previous entry (long chains), sometimes an earlier one (a fork), a later one (a
    // cycle or a forward parent), a missing one, or none.
    const parentId =
      i === 0 || roll < 0.03 ? null : roll < 0.75 ? entries[i - 1]!.id : roll < 0.9 ? entries[pick(i)]!.id : roll < 0.95 ? `e${i + 1 + pick(count)}` : "ghost";
    if (random() < 0.08 && i > 0) {
      entries.push(entry(id, parentId, "label", i + 1, { targetId: entries[pick(i)]!.id, label: random() < 0.2 ? "" : `label${i}` }));
    } else {
      const role = random() < 0.5 ? "assistant" : "user";
      entries.push(entry(id, parentId, "message", i + 1, { message: { role, content: [] } }));
    }
  }
  return entries;
}

describe("listBranches", () => {
  it("gives the figures of the walk that kept every entry, on random trees (cycles, reused ids, labels)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const session = sessionOf(randomEntries(seed, 5 + (seed % 60)));
      expect(listBranches(buildTree(session)), `seed ${seed}`).toEqual(referenceBranches(buildTree(session)));
    }
  });

  it("gives the same figures for a tree grown by appended entries as for the tree built at once", () => {
    for (let seed = 1; seed <= 100; seed++) {
      const all = randomEntries(seed, 40);
      const first = sessionOf(all.slice(0, 25));
      const tree = buildTree(first);
      listBranches(tree);
      const grown = sessionOf(all);
      if (!extendTree(tree, grown)) continue;
      expect(listBranches(tree), `seed ${seed}`).toEqual(referenceBranches(buildTree(grown)));
    }
  });

  it("keeps the figures of leaves and forks only, not of every entry of a long branch", () => {
    const entries: SessionEntry[] = [];
    for (let i = 0; i < 1000; i++) entries.push(entry(`e${i}`, i === 0 ? null : `e${i - 1}`, "message", i + 1, { message: { role: i % 2 ? "assistant" : "user", content: [] } }));
    // A second branch forking at e499.
    entries.push(entry("side", "e499", "message", 1001, { message: { role: "assistant", content: [] } }));
    const tree = buildTree(sessionOf(entries));
    expect(listBranches(tree).map((b) => [b.leafId, b.turns])).toEqual([
      ["e999", 500],
      ["side", 251],
    ]);
    expect([...tree.branchMemo!.turnsById.keys()].sort()).toEqual(["e499", "e999", "side"]);
  });
});
