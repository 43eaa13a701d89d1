// No import circles anywhere in src/: madge walks every TypeScript import (type-only imports
// included, since a circle of types is still a circle in the design) and must find none.
import madge from "madge";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

describe("import graph of src/", () => {
  it("has no circle", { timeout: 120_000 }, async () => {
    const graph = await madge(path.join(ROOT, "src"), {
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(ROOT, "tsconfig.json"),
      detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
    });
    // The walk must have seen the whole tree, or an empty graph would pass.
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(250);
    expect(graph.circular()).toEqual([]);
  });
});
