// The file names the intake reads, as the Open file picker's `accept` list: session files of lines
// and JSON documents, the agents' databases with their -wal and -shm, and every compressed
// container (src/core/intake/containers/: Zstandard `.zstd`/`.zst`, gzip `.gz`). The intake tells
// a file by its bytes, never by its name; this list only keeps the picker from greying out a file
// it would read. test/core/intake/openable-names.test.ts holds it to the containers' names.

export const OPENABLE_EXTENSIONS: readonly string[] = [
  ".jsonl",
  ".json",
  ".txt",
  ".log",
  ".html",
  ".db",
  ".db-wal",
  ".db-shm",
  ".sqlite",
  ".sqlite3",
  ".zstd",
  ".zst",
  ".gz",
];

/** The picker's `accept` attribute: the extensions and the media types browsers give such files. */
export const OPENABLE_ACCEPT = [
  ...OPENABLE_EXTENSIONS,
  "application/json",
  "text/plain",
  "application/vnd.sqlite3",
  "application/x-sqlite3",
  "application/zstd",
  "application/gzip",
].join(",");
