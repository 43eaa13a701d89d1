// Side files of a drop (hermes-agent's session_<id>.json snapshots, <id>.jsonl transcripts and
// request_dump_*.json, as the agents' descriptors name them) in the worker: decoded here, they
// either go with the database they were dropped with, or — without a database — are read as one
// store with a session picker. Called from readSession.ts and readDatabase.ts.
import type { Session } from "../../core/model";
import { maySideFileName, ownedSideFile, readSideFiles, type OwnedSideFile } from "../../core/session/index";

/** The text of every dropped file that is an agent's side file, with that agent (each file checked once). */
export async function sideFilesOf(files: readonly { name: string; data: Blob | Uint8Array }[]): Promise<OwnedSideFile[]> {
  const decoder = new TextDecoder("utf-8");
  const out: OwnedSideFile[] = [];
  for (const file of files) {
    if (!maySideFileName(file.name)) continue;
    const bytes = file.data instanceof Uint8Array ? file.data : new Uint8Array(await file.data.arrayBuffer());
    const owned = ownedSideFile({ name: file.name, text: decoder.decode(bytes) });
    if (owned) out.push(owned);
  }
  return out;
}

/**
 * Several side files without a database: one store, the chosen session shown. Null when fewer
 * than two of the files are one agent's, so the caller reads the drop as before.
 */
export async function readSideFileSet(files: readonly File[], sessionId: string | null): Promise<Session | null> {
  return readSideFiles(await sideFilesOf(files.map((file) => ({ name: file.name, data: file }))), sessionId);
}
