// What a compressed container kind is (Zstandard, gzip): how its first bytes are told, which names
// it usually has, how its decoder is loaded and how it decodes. The intake (../plan.ts) and the
// session reader (src/core/session/read.ts) ask the list in ./index.ts; no host knows a kind.

/** What went wrong while decoding, for the reader's warnings (line 0: the file as a whole). */
export interface ContainerProblem {
  reason: string;
}

export interface Container {
  /** Short id, for plans and tests ("zstd", "gzip"). */
  id: string;
  /** The name users know it by, for messages ("Zstandard"). */
  label: string;
  /** File names it usually has (a folder walk looks at these; the bytes decide, not the name). */
  namePattern: RegExp;
  /** True when `head` (a file's first bytes) starts like this container. */
  matches(head: Uint8Array): boolean;
  /**
   * Makes `decode` usable: hosts await it once before reading a file the plan says is this
   * container (a WebAssembly decoder is instantiated here; a pure one resolves at once).
   */
  loadDecoder(): Promise<void>;
  /**
   * The decoded bytes of `chunks`, in parts, in order. Damaged or cut data ends the parts early
   * and is reported through `onProblem` (never thrown): the parts decoded before it are kept.
   * Each part is valid until the next one is asked for.
   */
  decode(chunks: Iterable<Uint8Array>, fileName: string, onProblem: (problem: ContainerProblem) => void): Iterable<Uint8Array>;
}
