// A scan worker thread of a Claude Code folder loads the summary pass without the core: the
// modules its entry reaches before a job needs the full analysis hold no reader, no agent
// registry and no pipeline. esbuild bundles the worker module as the CLI build does and lists
// what it took in; the full analysis (scan/analyse.ts) is reached only by a dynamic import.
import { build } from "esbuild";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUMMARY_ONLY_AGENTS } from "../../src/core/agents/summary-registry";
import { allAgents } from "../../src/core/session/agents";

/** The source files a static bundle of `entry` takes in (dynamic imports left out). */
async function staticInputs(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    packages: "external",
    metafile: true,
    logLevel: "silent",
    // Dynamic imports stay imports: only what loads with the module is listed.
    plugins: [{ name: "no-dynamic", setup: (b) => b.onResolve({ filter: /.*/ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, external: true } : undefined)) }],
  });
  return Object.keys(result.metafile.inputs).map((file) => file.split(path.sep).join("/"));
}

describe("the scan worker's modules", () => {
  it("load Claude Code's summary pass and the prices, not the readers, the registry or the pipeline", async () => {
    const inputs = await staticInputs("src/cli/threads/scanWorker.ts");
    expect(inputs).toContain("src/core/agents/claude-code/summary.ts");
    expect(inputs).toContain("src/core/session/summary-pass.ts");
    for (const heavy of ["src/cli/scan/analyse.ts", "src/core/session/read.ts", "src/core/agents/registry.ts", "src/core/agents/claude-code/reader.ts", "src/core/session/pipeline.ts"]) expect(inputs).not.toContain(heavy);
    expect(inputs.length).toBeLessThan(40);
  });

  it("list each agent by its registry id with the registry's own summariser", () => {
    expect(SUMMARY_ONLY_AGENTS.length).toBeGreaterThan(0);
    for (const agent of SUMMARY_ONLY_AGENTS) {
      const registered = allAgents().find((candidate) => candidate.id === agent.id);
      expect(registered?.summarize, agent.id).toBeDefined();
      expect(agent.summarize).toBe(registered!.summarize);
    }
  });
});
