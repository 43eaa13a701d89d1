// Side files for the CLI: files an agent keeps beside its sessions or database (hermes-agent's
// session_<id>.json snapshots, <id>.jsonl transcripts and request dumps under `<home>/sessions/`),
// as each agent's descriptor names them. A database is read with the side files of the folder
// beside it, a home folder given itself is read through its database, and a side file given alone
// is read with its companions in the same folder (its session's request dumps).
import fs from "node:fs";
import path from "node:path";
import type { TextFile } from "../core/session/index";
import { detectFormat, sideFileLayouts } from "../core/session/index";
import { headBytes, headLines } from "./headLines";

function readText(file: string): string {
  return new TextDecoder("utf-8").decode(fs.readFileSync(file));
}

type Layout = ReturnType<typeof sideFileLayouts>[number];

/** The side files of `layout`'s agent in a folder (or only those named in `only`), as text. */
function sideFilesIn(folder: string, layout: Layout, only?: ReadonlySet<string>): TextFile[] {
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => layout.namePattern.test(name) && (only === undefined || only.has(name)))
    .sort()
    .map((name) => ({ name, text: readText(path.join(folder, name)) }))
    .filter((file) => layout.accepts(file.name, file.text));
}

/** Side files that belong with the database at `databasePath`: the agents' folders beside it (`<dir>/sessions/*`). */
export function sideFilesFor(databasePath: string): TextFile[] {
  return sideFileLayouts().flatMap((layout) => sideFilesIn(path.join(path.dirname(databasePath), layout.folderBesideDatabase), layout));
}

/** A file given alone, when it is an agent's side file: that agent, itself and its companions in the same folder. */
export function sideFileWithCompanions(file: string): { files: TextFile[]; read: Layout["read"] } | null {
  const name = path.basename(file);
  const layouts = sideFileLayouts().filter((layout) => layout.namePattern.test(name));
  if (layouts.length === 0 || !fs.existsSync(file) || !fs.statSync(file).isFile()) return null;
  // A file whose first lines another agent's reader recognises is that agent's (side-file readers
  // come last in detection order): it is not decoded whole here, which a file over 512 MiB could
  // not be.
  const reader = detectFormat(headLines(headBytes(file)), name);
  const own = layouts.find((candidate) => reader === null || candidate.agent.readers.includes(reader));
  if (!own) return null;
  const text = readText(file);
  if (!own.accepts(name, text)) return null;
  const folder = path.dirname(file);
  const companions = new Set(own.companions(name, fs.readdirSync(folder)));
  // Only the companions are read, not every side file of the folder.
  return { files: [{ name, text }, ...sideFilesIn(folder, own, companions)], read: own.read };
}

/** The database a home folder holds (hermes-agent's state.db), or null. */
export function homeDatabase(folder: string): string | null {
  for (const layout of sideFileLayouts()) {
    const candidate = path.join(folder, layout.homeDatabaseName);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** What a home folder is expected to hold, for the message when it holds nothing we read. */
export function homeFolderHint(): string {
  return sideFileLayouts()
    .map((layout) => `a ${layout.agent.label} home folder holds ${layout.homeDatabaseName}`)
    .join("; ");
}
