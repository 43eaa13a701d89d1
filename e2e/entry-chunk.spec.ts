// What the page loads before its first paint: its entry chunk and every chunk that one imports
// statically. None of it may hold the agents' code (src/core/agents/): reading, detecting and
// rebuilding sessions happen in the pipeline worker, so the page's main thread stays small; nor the
// price dataset (@pydantic/genai-prices), which the worker holds and asks for the session's rows. Read
// from dist/chunk-modules.json, which the build writes (scripts/chunkModulesPlugin.ts); without
// it the check fails, since a check that found nothing to read would hide what it tests.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ChunkRecord } from "../scripts/chunkModulesPlugin";

const listing = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/chunk-modules.json");

function readChunks(): ChunkRecord[] {
  const text = readFileSync(listing, "utf8");
  return (JSON.parse(text) as { chunks: ChunkRecord[] }).chunks;
}

/** The page's entry chunk and every chunk reached from it through static imports. */
function loadedAtStart(chunks: ChunkRecord[]): ChunkRecord[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entries = chunks.filter((chunk) => chunk.entry && !chunk.worker);
  expect(entries.map((chunk) => chunk.fileName), "the page has one entry chunk").toHaveLength(1);
  const seen = new Map<string, ChunkRecord>();
  const queue = [...entries];
  for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
    if (seen.has(chunk.fileName)) continue;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      expect(imported, `${chunk.fileName} imports ${name}, which the listing names`).toBeDefined();
      if (imported) queue.push(imported);
    }
  }
  return [...seen.values()];
}

const agentModules = (chunk: ChunkRecord) => chunk.modules.filter((id) => id.startsWith("src/core/agents/"));

test("the page's entry chunk and its static imports hold no agent code", () => {
  const chunks = readChunks();
  const atStart = loadedAtStart(chunks);
  // The listing is of this app: the entry holds the page's own entry module.
  expect(atStart.flatMap((chunk) => chunk.modules)).toContain("src/main.tsx");
  const found = atStart.flatMap((chunk) => agentModules(chunk).map((id) => `${chunk.fileName}: ${id}`));
  expect(found).toEqual([]);
});

test("the agents' code is in the pipeline worker, where the listing sees it", () => {
  const chunks = readChunks();
  const pipelineWorker = chunks.filter((chunk) => chunk.worker && chunk.entry && chunk.modules.includes("src/worker/pipeline.worker.ts"));
  expect(pipelineWorker).toHaveLength(1);
  expect(agentModules(pipelineWorker[0]!).length).toBeGreaterThan(10);
});

test("the price dataset is in the pipeline worker only, not in what the page loads at start", () => {
  const chunks = readChunks();
  const dataset = (chunk: ChunkRecord) => chunk.modules.filter((id) => id.includes("@pydantic/genai-prices") || id === "src/core/pricing/dataset.ts");
  const found = loadedAtStart(chunks).flatMap((chunk) => dataset(chunk).map((id) => `${chunk.fileName}: ${id}`));
  expect(found).toEqual([]);
  const pipelineWorker = chunks.find((chunk) => chunk.worker && chunk.entry && chunk.modules.includes("src/worker/pipeline.worker.ts"));
  expect(dataset(pipelineWorker!)).toHaveLength(2);
});
