// The physical floor of reading a session, as a whole process: read the file as bytes, decode
// each line separately and JSON.parse it, keeping every record (as a reader must).
// `node bench/line-floor.mjs <file>` prints the number of records.
import { readFileSync } from "node:fs";

const buffer = readFileSync(process.argv[2]);
const records = [];
let start = 0;
for (let index = buffer.indexOf(10, start); index !== -1; index = buffer.indexOf(10, start)) {
  if (index > start) records.push(JSON.parse(buffer.toString("utf8", start, index)));
  start = index + 1;
}
console.log(records.length);
