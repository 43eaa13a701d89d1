// What a file's first bytes say it is, before any line is read: a SQLite database, a SQLite
// write-ahead log, a compressed container (./containers/), or plain bytes for the line readers.
// The only place outside the storage and container code that looks at magic numbers.
import { isSqliteHeader } from "../storage/sqlite";
import { isWalHeader } from "../storage/files";
import { containerOf, type Container } from "./containers/index";

export type HeadRole = { kind: "database" } | { kind: "wal" } | { kind: "compressed"; container: Container } | { kind: "plain" };

export function headRole(head: Uint8Array): HeadRole {
  if (isSqliteHeader(head)) return { kind: "database" };
  if (isWalHeader(head)) return { kind: "wal" };
  const container = containerOf(head);
  return container ? { kind: "compressed", container } : { kind: "plain" };
}

/** True when a file with this head is read whole rather than followed line by line (a database, a compressed file). */
export function readsWhole(head: Uint8Array): boolean {
  const role = headRole(head);
  return role.kind === "database" || role.kind === "compressed";
}
