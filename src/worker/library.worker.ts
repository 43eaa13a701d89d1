// A worker of the sessions library: given a session file (a handle, or a database with its -wal),
// it reads it with the pipeline worker's reader and answers with the row's facts
// (src/app/libraryRow.ts). The page starts as many as the machine has cores (src/state/library.ts)
// and hands each the next file as soon as it answers. Nothing leaves the page.
/// <reference lib="webworker" />
import { libraryRowFacts } from "../app/libraryRow";
import type { LibraryJob, LibraryReply } from "./libraryProtocol";
import { readSession } from "./readSession";

declare const self: DedicatedWorkerGlobalScope;

async function facts(job: LibraryJob): Promise<LibraryReply> {
  try {
    const files = await Promise.all(job.handles.map((handle) => handle.getFile()));
    const source = files.length === 1 ? { kind: "file" as const, file: files[0]! } : { kind: "files" as const, files };
    const read = await readSession(source, { isCancelled: () => false, onProgress: () => undefined });
    return { id: job.id, ok: true, facts: libraryRowFacts(read.session) };
  } catch (error) {
    return { id: job.id, ok: false, error: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
  }
}

self.onmessage = (event: MessageEvent<LibraryJob>) => {
  void facts(event.data).then((reply) => self.postMessage(reply));
};
