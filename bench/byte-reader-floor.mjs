// The floor of a reader that keeps a session's large texts as UTF-8 bytes instead of strings, as a
// whole process, to set beside bench/line-floor.mjs (which keeps every text as a string). It reads
// the file in 4 MB chunks, finds each line's string literals by jumping from quote to quote
// (`Uint8Array.prototype.indexOf`, native), copies the escaped bytes of every literal of at least
// 1 KiB into a byte store (64 MB chunks), decodes and `JSON.parse`s the rest of the line with each
// such literal replaced by a placeholder, and puts a reference ({ chunk, start, length }) where
// the placeholder landed. It keeps every record and the store; it does not build a session.
// `node --expose-gc bench/byte-reader-floor.mjs <file> [--strings] [--walk]` prints the records,
// the texts kept as bytes, and the heap after a full collection; `--strings` reads the same way
// but keeps every text as a string (decoding each line whole), the same bookkeeping without the
// store; `--walk` then reads every stored text once as a segment hasher and the chars/4 estimate
// would: a 53-bit hash over its escaped bytes, 32 bits at a time, and its length in UTF-16 units
// counted on the bytes (checked against the decoded texts, outside the time).
import { closeSync, openSync, readSync } from "node:fs";

const LARGE = 1024;
const CHUNK = 4 << 20;
const STORE_CHUNK = 64 << 20;
const keepStrings = process.argv.includes("--strings");
const walk = process.argv.includes("--walk");

const decoder = new TextDecoder();
const storeChunks = [new Uint8Array(STORE_CHUNK)];
const stored = [];
let storeUsed = 0;
let largeTexts = 0;
let largeBytes = 0;

/** Appends escaped bytes to the store (at a 4-byte boundary, to be read as words) and returns their reference. */
function store(bytes, start, end) {
  const length = end - start;
  storeUsed = (storeUsed + 3) & ~3;
  if (storeUsed + length > STORE_CHUNK) {
    storeChunks.push(new Uint8Array(Math.max(STORE_CHUNK, length)));
    storeUsed = 0;
  }
  const chunk = storeChunks.length - 1;
  storeChunks[chunk].set(bytes.subarray(start, end), storeUsed);
  const reference = { chunk, start: storeUsed, length };
  if (walk) stored.push(reference);
  storeUsed += length;
  largeTexts++;
  largeBytes += length;
  return reference;
}

const PLACEHOLDER = "\u0000\u0001text:";

/** Puts each placeholder's reference in its place (the parsed line is small now). */
function resolve(value, references) {
  if (typeof value === "string") return value.startsWith(PLACEHOLDER) ? references[Number(value.slice(PLACEHOLDER.length))] : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = resolve(value[i], references);
    return value;
  }
  for (const key of Object.keys(value)) value[key] = resolve(value[key], references);
  return value;
}

/** Parses one line (bytes[start, end)), keeping its large string literals as bytes. */
function parseLine(bytes, start, end) {
  if (keepStrings) return JSON.parse(decoder.decode(bytes.subarray(start, end)));
  let small = "";
  let copied = start;
  let references = null;
  for (let position = start; ; ) {
    const open = bytes.indexOf(34, position);
    if (open === -1 || open >= end) break;
    let close = bytes.indexOf(34, open + 1);
    for (;;) {
      if (close === -1 || close >= end) return JSON.parse(decoder.decode(bytes.subarray(start, end))); // malformed: let JSON.parse say so
      let backslashes = 0;
      while (bytes[close - 1 - backslashes] === 92) backslashes++;
      if (backslashes % 2 === 0) break;
      close = bytes.indexOf(34, close + 1);
    }
    if (close - open - 1 >= LARGE) {
      references ??= [];
      small += decoder.decode(bytes.subarray(copied, open)) + JSON.stringify(PLACEHOLDER + references.length);
      references.push(store(bytes, open + 1, close));
      copied = close + 1;
    }
    position = close + 1;
  }
  if (references === null) return JSON.parse(decoder.decode(bytes.subarray(start, end)));
  small += decoder.decode(bytes.subarray(copied, end));
  return resolve(JSON.parse(small), references);
}

const records = [];
const descriptor = openSync(process.argv[2], "r");
let buffer = new Uint8Array(CHUNK);
let filled = 0;
for (;;) {
  const read = readSync(descriptor, buffer, filled, buffer.length - filled, null);
  const end = filled + read;
  let start = 0;
  for (let newline = buffer.indexOf(10, start); newline !== -1 && newline < end; newline = buffer.indexOf(10, start)) {
    if (newline > start) records.push(parseLine(buffer, start, newline));
    start = newline + 1;
  }
  if (read === 0) {
    if (end > start) records.push(parseLine(buffer, start, end));
    break;
  }
  // Keep the unfinished line; grow the buffer when one line is longer than it.
  const rest = end - start;
  if (rest * 2 > buffer.length) {
    const larger = new Uint8Array(buffer.length * 2);
    larger.set(buffer.subarray(start, end));
    buffer = larger;
  } else buffer.copyWithin(0, start, end);
  filled = rest;
}
closeSync(descriptor);
globalThis.gc?.();
const heap = process.memoryUsage();
console.log(
  `${records.length} records; ${largeTexts} texts of ≥ ${LARGE} bytes kept as bytes (${(largeBytes / 1e6).toFixed(1)} MB in ${storeChunks.length} store chunks); heap ${(heap.heapUsed / 1e6).toFixed(0)} MB, array buffers ${(heap.arrayBuffers / 1e6).toFixed(0)} MB`,
);

if (walk) {
  const words = storeChunks.map((chunk) => new Int32Array(chunk.buffer, 0, chunk.length >> 2));
  let units = 0;
  let checksum = 0;
  const started = performance.now();
  for (const { chunk, start, length } of stored) {
    const [hash, textUnits] = hashAndCountUnits(storeChunks[chunk], words[chunk], start, length);
    checksum = (checksum + hash) % 9007199254740881;
    units += textUnits;
  }
  const took = performance.now() - started;
  let decoded = 0;
  for (const { chunk, start, length } of stored) decoded += JSON.parse(`"${decoder.decode(storeChunks[chunk].subarray(start, start + length))}"`).length;
  console.log(`walk: ${stored.length} texts hashed and measured in ${took.toFixed(0)} ms; ${units} UTF-16 units (decoded: ${decoded}${units === decoded ? ", equal" : ", DIFFERENT"}); checksum ${checksum}`);
}

/**
 * A hash of escaped bytes [start, start + length) read as 32-bit words, and the decoded text's
 * UTF-16 length: bytes that start a character (not 10xxxxxx), one more for each 4-byte character
 * (a surrogate pair), less what each escape adds (\n: 1 unit for 2 bytes, \uXXXX: 1 for 6).
 */
function hashAndCountUnits(bytes, words, start, length) {
  let h1 = 0xdeadbeef ^ length;
  let h2 = 0x41c6ce57;
  let continuation = 0;
  let lanes = 0; // four byte-wide counters of continuation bytes, emptied before they can overflow
  let escapes = 0;
  const first = start >> 2;
  const last = first + (length >> 2);
  for (let w = first; w < last; w++) {
    const x = words[w];
    h1 = Math.imul(h1 ^ x, 2654435761);
    h2 = Math.imul(h2 ^ x, 1597334677);
    // 10xxxxxx bytes (continuations) count no unit; 11110xxx (4-byte leads) count two
    lanes += ((x & ~(x << 1)) >>> 7) & 0x01010101;
    const lead4 = x & (x << 1) & (x << 2) & (x << 3) & ~(x << 4) & 0x80808080;
    const slash = x ^ 0x5c5c5c5c;
    escapes |= lead4 | (((slash - 0x01010101) & ~slash) & 0x80808080);
    if (((w - first) & 127) === 127) {
      continuation += (lanes & 0xff) + ((lanes >>> 8) & 0xff) + ((lanes >>> 16) & 0xff) + (lanes >>> 24);
      lanes = 0;
    }
  }
  continuation += (lanes & 0xff) + ((lanes >>> 8) & 0xff) + ((lanes >>> 16) & 0xff) + (lanes >>> 24);
  for (let i = last << 2; i < start + length; i++) {
    const b = bytes[i];
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
    if ((b & 0xc0) === 0x80) continuation++;
    else if ((b & 0xf8) === 0xf0 || b === 92) escapes = 1;
  }
  let units = length - continuation;
  if (escapes !== 0) {
    // Escapes or 4-byte characters: a second, bytewise pass over the texts that have any.
    const end = start + length;
    for (let at = start; at < end; at++) {
      const b = bytes[at];
      if (b === 92) {
        const long = bytes[at + 1] === 117;
        units -= long ? 5 : 1;
        at += long ? 5 : 1;
      } else if ((b & 0xf8) === 0xf0) units++;
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [4294967296 * (2097151 & h2) + (h1 >>> 0), units];
}
