// The physical floor of reading a session, as a whole process: read the file as bytes, decode
// each line separately and JSON.parse it, keeping every record (as a reader must).
// `node bench/line-floor.mjs <file> [<file> …]` prints the number of records. Several files are
// read one after the other (a Claude Code session and its sub-agents' transcripts); a `.json` file
// (a document, not lines: Gemini CLI's older chat form) is decoded and parsed whole.
// `--keep-none` reads each file in 4 MB chunks and keeps no record: the reading and parsing part
// of the floor alone, for a file that cannot be held whole (Node reads at most 2 GiB at once, and
// the records of a 16 GB session would not fit in memory).
import { closeSync, openSync, readFileSync, readSync } from "node:fs";

const keepNone = process.argv.includes("--keep-none");
const files = process.argv.slice(2).filter((argument) => argument !== "--keep-none");

/** Parses each line of `file` in 4 MB chunks, keeping nothing; the number of records. */
function parseStreamed(file) {
  const fd = openSync(file, "r");
  let buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
  let held = 0;
  let count = 0;
  for (;;) {
    if (held === buffer.length) {
      // A line longer than the buffer: grow it.
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, held);
      buffer = larger;
    }
    const read = readSync(fd, buffer, held, buffer.length - held, null);
    const end = held + read;
    let start = 0;
    for (let index = buffer.indexOf(10, start); index !== -1 && index < end; index = buffer.indexOf(10, start)) {
      if (index > start) {
        JSON.parse(buffer.toString("utf8", start, index));
        count++;
      }
      start = index + 1;
    }
    // A last line without its line end is left out, as the mode that keeps records does.
    if (read === 0) break;
    buffer.copy(buffer, 0, start, end);
    held = end - start;
  }
  closeSync(fd);
  return count;
}

const records = [];
let streamed = 0;
for (const file of files) {
  if (keepNone) {
    streamed += parseStreamed(file);
    continue;
  }
  const buffer = readFileSync(file);
  if (file.endsWith(".json")) {
    records.push(JSON.parse(buffer.toString("utf8")));
    continue;
  }
  let start = 0;
  for (let index = buffer.indexOf(10, start); index !== -1; index = buffer.indexOf(10, start)) {
    if (index > start) records.push(JSON.parse(buffer.toString("utf8", start, index)));
    start = index + 1;
  }
}
console.log(records.length + streamed);
