// How often the pipeline worker reads a large picked file back while it opens it: a session of
// 64 MB or more leaves its long texts in the `File` (src/features/open/fileTextSource.ts) and reads
// them with `FileReaderSync` through the window of src/core/text/windowedSource.ts when a stage
// needs them, each read costing milliseconds in a browser. For each agent the bench generator
// writes (and pi's own generator), this reads a generated session with its texts left in it
// (`readSessionChunks` with a windowed source whose reads are counted: the worker's window over
// the worker's reader, which Node does not have) and analyses it (`analyzeSession`, what the worker
// does before the page is ready), and prints the reads of each phase and the stages that made
// them, and what the text store holds besides the file. Counts, not times: they do not depend on
// the machine. `./node_modules/.bin/tsx bench/texts-in-file-reads.bench.ts [--mb 100]
// [--agents pi,claude-code,…]`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { readSessionChunks } from "../src/core/session/read";
import { analyzeSession } from "../src/core/session/pipeline";
import { releaseSessionTexts } from "../src/core/session/textStores";
import { setReadersKeepStoredTexts } from "../src/core/text/storedTextsSwitch";
import { windowedTextSource } from "../src/core/text/windowedSource";
import { utf8Decode } from "../src/core/util/utf8";
import { GENERATED_AGENTS, generateAgentSession } from "./generate-agent-session";
import { cachedPiSession } from "./generate-session";

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? null : process.argv[at + 1]!;
};
const mb = Number(arg("--mb") ?? 100);
const agents = arg("--agents")?.split(",") ?? ["pi", ...GENERATED_AGENTS];
const CHUNK_BYTES = 1024 * 1024;

let phase = "read";
const reads = new Map<string, number>();

/** Counts a read by phase and by the stage that asked for the bytes. */
function count(): void {
  const frames = (new Error().stack ?? "").split("\n").map((line) => line.trim());
  // The first frame outside the text store and its window: the stage that wanted the bytes.
  const stage = frames.find((line) => line.startsWith("at ") && !/storedText|windowedSource|textTests|count \(|readRange/.test(line)) ?? "?";
  const key = `${phase}: ${stage.replace(/^at /, "").replace(/\(.*\/src\//, "(src/")}`;
  reads.set(key, (reads.get(key) ?? 0) + 1);
}

setReadersKeepStoredTexts(true);
Error.stackTraceLimit = 30;

for (const agent of agents) {
  const file = agent === "pi" ? await cachedPiSession(mb) : generateAgentSession(agent as (typeof GENERATED_AGENTS)[number], { minBytes: mb * 1024 * 1024, seed: 1 }).file;
  const bytes = new Uint8Array(readFileSync(file));
  const source = windowedTextSource({
    name: path.basename(file),
    readRange(offset, length) {
      count();
      return bytes.slice(offset, offset + length);
    },
  });
  const chunks = function* () {
    for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
  };
  reads.clear();
  phase = "read";
  const session = readSessionChunks(chunks(), path.basename(file), utf8Decode, undefined, source);
  phase = "analysis";
  analyzeSession(session, {});
  const total = (name: string) => [...reads].filter(([key]) => key.startsWith(`${name}:`)).reduce((sum, [, n]) => sum + n, 0);
  // What the store holds besides the file: the texts' first bytes and the texts copied.
  const store = session.textStore;
  const held = store ? store.chunks.slice(0, -1).reduce((sum, chunk) => sum + chunk.byteLength, 0) + store.used : 0;
  console.log(`${agent}, ${(bytes.byteLength / 1024 / 1024).toFixed(0)} MB, ${session.entries.length} entries: ${total("read")} reads while reading, ${total("analysis")} while analysing; the store holds ${(held / 1024).toFixed(0)} KB (${store?.sourced ?? 0} texts in the file)`);
  for (const [key, n] of [...reads].sort((a, b) => b[1] - a[1]).slice(0, 4)) console.log(`  ${n} × ${key}`);
  releaseSessionTexts(session);
}
