// A text source over bytes held in memory, for tests of readers that leave large texts in their
// input (what the CLI does with a file, src/cli/fileTextSource.ts): it counts its reads and
// refuses a read outside the input or one that does not stand between a literal's quotes.
import type { TextSource } from "../../src/core/text/storedText";

export interface MemoryTextSource extends TextSource {
  reads: number;
  closed: boolean;
}

export function memoryTextSource(bytes: Uint8Array): MemoryTextSource {
  const source: MemoryTextSource = {
    reads: 0,
    closed: false,
    read(offset, length) {
      if (source.closed) throw new Error("read after close");
      if (offset < 1 || offset + length + 1 > bytes.length) throw new RangeError(`read outside the input: ${offset}+${length}`);
      if (bytes[offset - 1] !== 0x22 || bytes[offset + length] !== 0x22) throw new Error(`not a literal's bytes at ${offset}+${length}`);
      source.reads++;
      return bytes.subarray(offset, offset + length);
    },
    close() {
      source.closed = true;
    },
  };
  return source;
}
