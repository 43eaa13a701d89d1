// A file read in fixed-size chunks through one reused buffer: the CLI's `readFileChunks`, which
// lets a session be parsed line by line without holding the whole file (a gigabyte, say) in memory.
import fs from "node:fs";

/** Chunk size: large enough that a read costs little per byte, small beside any session file. */
const FILE_CHUNK_BYTES = 4 * 1024 * 1024;

/** Opens `file` now (so a missing file throws here, like readFileSync) and yields its chunks. */
export function fileChunks(file: string, chunkBytes = FILE_CHUNK_BYTES): Iterable<Uint8Array> {
  const fd = fs.openSync(file, "r");
  if (fs.fstatSync(fd).isDirectory()) {
    fs.closeSync(fd);
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: "EISDIR" });
  }
  return (function* () {
    const buffer = new Uint8Array(chunkBytes);
    try {
      for (;;) {
        const read = fs.readSync(fd, buffer, 0, chunkBytes, null);
        if (read === 0) return;
        yield buffer.subarray(0, read);
      }
    } finally {
      fs.closeSync(fd);
    }
  })();
}
