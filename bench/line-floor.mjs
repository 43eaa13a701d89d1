// The physical floor of reading a session, as a whole process: read the file as bytes, decode
// each line separately and JSON.parse it, keeping every record (as a reader must).
// `node bench/line-floor.mjs <file> [<file> …]` prints the number of records. Several files are
// read one after the other (a Claude Code session and its sub-agents' transcripts); a `.json` file
// (a document, not lines: Gemini CLI's older chat form) is decoded and parsed whole.
import { readFileSync } from "node:fs";

const records = [];
for (const file of process.argv.slice(2)) {
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
console.log(records.length);
