// hermes-agent storage for the CLI (HS-1 … HS-4): a state.db is read with the side files of its
// home folder's `sessions/` (session_<id>.json snapshots, <id>.jsonl transcripts,
// request_dump_*.json), a home folder given itself is read through its state.db, and a side file
// given alone is read with the request dumps of its session that sit beside it.
import fs from "node:fs";
import path from "node:path";
import { hermesAgent } from "../core/agents/hermes/agent";
import { readHermesSideFile, sessionIdFromFileName } from "../core/agents/hermes/storage";
import { detectFormat } from "../core/readers";
import { headBytes, headLines } from "./headLines";

const SIDE_FILE = /^(session_.+\.json|request_dump_.+\.json|.+\.jsonl)$/i;

function readText(file: string): string {
  return new TextDecoder("utf-8").decode(fs.readFileSync(file));
}

/** The hermes side files of a folder (`<home>/sessions/` or the folder itself), as text. */
function hermesSideFilesIn(folder: string): { name: string; text: string }[] {
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => SIDE_FILE.test(name))
    .sort()
    .map((name) => ({ name, text: readText(path.join(folder, name)) }))
    .filter((file) => readHermesSideFile(file.name, file.text) !== null);
}

/** Side files that belong with the state.db at `databasePath`: `<dir>/sessions/*`. */
export function hermesSideFilesFor(databasePath: string): { name: string; text: string }[] {
  return hermesSideFilesIn(path.join(path.dirname(databasePath), "sessions"));
}

/** A file given alone: itself plus the request dumps of its session in the same folder. */
export function hermesSideFileWithDumps(file: string): { name: string; text: string }[] | null {
  const name = path.basename(file);
  if (!SIDE_FILE.test(name) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return null;
  // A file whose first lines another agent's reader recognises is that agent's (hermes readers
  // come last in detection order): it is not decoded whole here, which a file over 512 MiB
  // could not be.
  const reader = detectFormat(headLines(headBytes(file)), name);
  if (reader !== null && !hermesAgent.readers.includes(reader)) return null;
  const text = readText(file);
  if (!readHermesSideFile(name, text)) return null;
  const id = sessionIdFromFileName(name);
  const dumps = id === null || /^request_dump_/i.test(name) ? [] : hermesSideFilesIn(path.dirname(file)).filter((f) => f.name.startsWith(`request_dump_${id}_`));
  return [{ name, text }, ...dumps];
}

/** The state.db of a hermes home folder, or null. */
export function hermesHomeDatabase(folder: string): string | null {
  const candidate = path.join(folder, "state.db");
  return fs.existsSync(candidate) ? candidate : null;
}
