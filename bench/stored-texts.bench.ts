// Reading a session with its large texts kept as bytes (src/core/text: parseLineKeepingLargeTexts,
// which also measures every stored text) against reading it with every text a string (decode
// each line, JSON.parse), in one process, alternating: time per read and what the records hold
// after a full collection (JS heap and array buffers), then the segment hash of every record
// (`hashJsonRendering`: over the strings' UTF-8, or the stored texts' bytes read from the store;
// the two give equal hashes). Both keep every record, as a reader must.
// Run: `node --expose-gc --import tsx bench/stored-texts.bench.ts [--mb N | --file <session.jsonl>] [--rounds 3]`
// (default: a generated 100 MB pi session, seed 1, as bench/estimate-prefix.bench.ts uses).
import { closeSync, openSync, readSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { hashJsonRendering } from "../src/core/prefix/hash";
import { parseLineKeepingLargeTexts } from "../src/core/text/largeLiterals";
import { createTextStore, releaseTextStore, trimTextStore, type TextStore } from "../src/core/text/storedText";
import { generatePiSession } from "./generate-session";

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? null : process.argv[index + 1]!;
};
const given = argument("--file");
const rounds = Number(argument("--rounds") ?? 3);
const generated = given
  ? { file: given, bytes: statSync(given).size }
  : await generatePiSession({ minBytes: Number(argument("--mb") ?? 100) * 1024 * 1024, minTurns: 0, seed: 1 });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.warn("run with node --expose-gc for the memory figures");

const decoder = new TextDecoder();

/** Calls `onLine(bytes, start, end)` for each line of the file, read in 4 MB chunks. */
function forEachLine(file: string, onLine: (bytes: Uint8Array, start: number, end: number) => void): void {
  const descriptor = openSync(file, "r");
  let buffer = new Uint8Array(4 << 20);
  let filled = 0;
  for (;;) {
    const read = readSync(descriptor, buffer, filled, buffer.length - filled, null);
    const end = filled + read;
    let start = 0;
    for (let newline = buffer.indexOf(10, start); newline !== -1 && newline < end; newline = buffer.indexOf(10, start)) {
      if (newline > start) onLine(buffer, start, newline);
      start = newline + 1;
    }
    if (read === 0) {
      if (end > start) onLine(buffer, start, end);
      break;
    }
    const rest = end - start;
    if (rest * 2 > buffer.length) {
      const larger = new Uint8Array(buffer.length * 2);
      larger.set(buffer.subarray(start, end));
      buffer = larger;
    } else buffer.copyWithin(0, start, end);
    filled = rest;
  }
  closeSync(descriptor);
}

function readStrings(): { records: unknown[] } {
  const records: unknown[] = [];
  forEachLine(generated.file, (bytes, start, end) => records.push(JSON.parse(decoder.decode(bytes.subarray(start, end)))));
  return { records };
}

function readStored(): { records: unknown[]; store: TextStore } {
  const records: unknown[] = [];
  const store = createTextStore();
  forEachLine(generated.file, (bytes, start, end) => records.push(parseLineKeepingLargeTexts(bytes, start, end, store)));
  trimTextStore(store);
  return { records, store };
}

gc?.();
const before = process.memoryUsage(); // what the process holds before any read

function measure(label: string, read: () => { records: unknown[]; store?: TextStore }): number {
  const started = performance.now();
  const kept = read();
  const ms = performance.now() - started;
  gc?.();
  const after = process.memoryUsage();
  const heap = (after.heapUsed - before.heapUsed) / 1e6;
  const buffers = (after.arrayBuffers - before.arrayBuffers) / 1e6;
  console.log(`${label.padEnd(22)} ${ms.toFixed(0).padStart(6)} ms; ${kept.records.length} records kept: heap ${heap.toFixed(0)} MB + array buffers ${buffers.toFixed(0)} MB = ${((heap + buffers) / (generated.bytes / 1e6)).toFixed(2)} × file`);
  const hashStarted = performance.now();
  let checksum = 0;
  for (const record of kept.records) checksum = (checksum + hashJsonRendering(record)!.hash) % 9007199254740881;
  console.log(`${"".padEnd(22)} hashing every record: ${(performance.now() - hashStarted).toFixed(0)} ms (checksum ${checksum})`);
  if (kept.store) releaseTextStore(kept.store); // the realm's registry would keep it otherwise
  return ms;
}

console.log(`session: ${(generated.bytes / 1e6).toFixed(1)} MB`);
const times = { strings: [] as number[], stored: [] as number[] };
for (let round = 0; round < rounds; round++) {
  times.strings.push(measure("texts as strings", readStrings));
  times.stored.push(measure("large texts as bytes", readStored));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(`median: strings ${median(times.strings).toFixed(0)} ms, bytes ${median(times.stored).toFixed(0)} ms = ${(median(times.stored) / median(times.strings)).toFixed(2)} × strings`);
if (!given) rmSync(path.dirname(generated.file), { recursive: true, force: true });
