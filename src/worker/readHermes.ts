// hermes-agent files dropped together in the worker (HS-3): the text side files of a drop
// (session_<id>.json snapshots, <id>.jsonl transcripts, request_dump_*.json) are decoded here and
// either go with the state.db they were dropped with, or — without a database — are read as one
// hermes store with a session picker. Called from readSession.ts and readDatabase.ts.
import type { Session } from "../core/model";
import { readHermesSideFile, readHermesStorage } from "../core/agents/hermes/storage";

/** Dropped files whose names say they may be hermes side files (the content decides). */
function isHermesSideFileName(name: string): boolean {
  return /(^|[\\/])(session_.+\.json|request_dump_.+\.json|[^\\/]+\.jsonl|sessions\.json)$/i.test(name);
}

/** The text of every dropped file that is a hermes side file. */
export async function hermesSideFiles(files: readonly { name: string; data: Blob | Uint8Array }[]): Promise<{ name: string; text: string }[]> {
  const decoder = new TextDecoder("utf-8");
  const out: { name: string; text: string }[] = [];
  for (const file of files) {
    if (!isHermesSideFileName(file.name)) continue;
    const bytes = file.data instanceof Uint8Array ? file.data : new Uint8Array(await file.data.arrayBuffer());
    const text = decoder.decode(bytes);
    if (readHermesSideFile(file.name, text)) out.push({ name: file.name, text });
  }
  return out;
}

/**
 * Several hermes side files without a database: one store, the chosen session shown. Null when
 * fewer than two of the files are hermes', so the caller reads the drop as before.
 */
export async function readHermesFileSet(files: readonly File[], sessionId: string | null): Promise<Session | null> {
  const sides = await hermesSideFiles(files.map((file) => ({ name: file.name, data: file })));
  if (sides.length < 2) return null;
  return readHermesStorage({ sideFiles: sides, sessionId });
}
