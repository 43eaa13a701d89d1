// Opening a database the intake planned (FM-OC-1): its file and its `-wal` collected into memory
// (the `-shm` is never read) and handed to ./sqlite.ts with the agent's store files given with it
// and the names of the other files. Runs in the worker.
import type { Session } from "../../core/model";
import type { OpenPlan } from "../../core/intake/index";
import { storageSummary } from "../../core/session/index";
import type { DatabaseSummary } from "./protocol";
import { readDatabaseFileSet } from "./sqlite";

type DatabasePlan = Extract<OpenPlan, { kind: "database" }>;

/** Reads the planned database (paired with its -wal) among `files`, session `sessionId` or the default. */
export async function readPlannedDatabase(plan: DatabasePlan, files: readonly (File | { name: string; bytes: Uint8Array })[], sessionId: string | null): Promise<Session> {
  const bytesOf = async (name: string) => {
    const file = files.find((candidate) => candidate.name === name)!;
    return { name, bytes: file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : file.bytes };
  };
  return readDatabaseFileSet({
    database: await bytesOf(plan.database),
    wal: plan.wal === null ? null : await bytesOf(plan.wal),
    sessionId,
    sideFiles: plan.sideFiles,
    otherFileNames: plan.otherFileNames,
  });
}

/** The session picker's and the WAL banner's facts, for a Session read from a database. */
export function databaseSummary(session: Session, fileNames: string[]): DatabaseSummary | undefined {
  const summary = storageSummary(session);
  return summary ? { ...summary, fileNames } : undefined;
}
