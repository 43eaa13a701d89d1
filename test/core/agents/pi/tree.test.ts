import { describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { buildTree, listBranches, pathToRoot, resolveLeafId } from "../../../../src/core/agents/pi/tree";
import { buildSessionContext } from "../../../../src/core/agents/pi/projection";
import { assistant, sessionOf, user } from "./sessionBuilder";

// u1 ─ a1 ─ u2 ─ a2          (branch A, leaf a2)
//          └ u3 ─ a3 ─ L     (branch B, appended later; L labels a3; last entry in file order)
function branchy(): Session {
  return sessionOf([
    user("u1", "one"),
    assistant("a1", "r1"),
    user("u2", "two"),
    assistant("a2", "r2"),
    { ...user("u3", "three"), parentId: "a1" },
    assistant("a3", "r3"),
    { id: "L", type: "label", targetId: "a3", label: "retry" },
    { id: "N", type: "session_info", name: "My session", parentId: "L" },
  ]);
}

describe("session tree", () => {
  it("lists every entry without children as a leaf, default = last entry in file order", () => {
    const tree = buildTree(branchy());
    const branches = listBranches(tree);
    expect(branches.map((b) => [b.leafId, b.turns, b.isDefault])).toEqual([
      ["a2", 2, false],
      ["N", 2, true],
    ]);
    expect(branches[1]?.label).toBe("retry"); // nearest label on the path
    expect(branches[0]?.label).toBeNull();
    expect(tree.sessionName).toBe("My session");
    expect(tree.defaultLeafId).toBe("N");
  });

  it("resolves the leaf per PI-P1: existing id, else the last entry", () => {
    const tree = buildTree(branchy());
    expect(resolveLeafId(tree, "a2")).toBe("a2");
    expect(resolveLeafId(tree, "nope")).toBe("N");
    expect(resolveLeafId(tree, undefined)).toBe("N");
  });

  it("follows parentId from a leaf to the root, root first", () => {
    const tree = buildTree(branchy());
    expect(pathToRoot(tree, "a2").entries.map((e) => e.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(pathToRoot(tree, "a3").entries.map((e) => e.id)).toEqual(["u1", "a1", "u3", "a3"]);
  });

  it("stops at the first entry visited twice (cycle guard) and reports it", () => {
    const session = sessionOf([
      { ...user("x", "loop"), parentId: "y" },
      { ...assistant("y", "r"), parentId: "x" },
    ]);
    const tree = buildTree(session);
    const path = pathToRoot(tree, "y");
    expect(path.entries.map((e) => e.id)).toEqual(["x", "y"]);
    expect(path.cycleAt).toBe("y");
    const context = buildSessionContext(tree, "y", "pi");
    expect(context.warnings[0]?.reason).toMatch(/cycle/);
    expect(context.messages).toHaveLength(2);
  });

  it("warns about reused ids (the later entry wins) and unknown parents", () => {
    const session = sessionOf([user("u1", "a"), { ...assistant("u1", "b") }, { ...user("u9", "c"), parentId: "ghost" }]);
    const tree = buildTree(session);
    expect(tree.warnings.map((w) => w.reason).join("\n")).toMatch(/used more than once/);
    expect(tree.warnings.map((w) => w.reason).join("\n")).toMatch(/ghost/);
    expect((tree.byId.get("u1")?.raw.message as { role: string }).role).toBe("assistant");
  });
});
