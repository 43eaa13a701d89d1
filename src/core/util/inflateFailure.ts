// What a failed inflate (deflate data: a gzip member, a share link's payload) means, in our own
// words. fflate's errors carry a code (its FlateErrorCode) and a terse text meant for developers
// ("invalid block type", "unexpected EOF"); warnings and messages say these sentences instead,
// never the library's text, whatever the error was.

/**
 * Why inflating stopped: "cut" when the data ended before it was whole (a copy taken mid-write),
 * "not gzip" when bytes after a gzip member start no other member, else "damaged".
 */
export interface InflateFailure {
  kind: "cut" | "damaged" | "not gzip";
  /** What was wrong with the data, as a phrase ("a compressed block of a type deflate does not have"). */
  what: string;
}

/** fflate's error codes (FlateErrorCode) that say something about the data, with our phrase for each. */
const PHRASES: Record<number, InflateFailure> = {
  0: { kind: "cut", what: "the data ends inside a compressed block" },
  1: { kind: "damaged", what: "a compressed block of a type deflate does not have" },
  2: { kind: "damaged", what: "a length or literal code that does not exist" },
  3: { kind: "damaged", what: "a copy from further back than the data decoded so far" },
  6: { kind: "not gzip", what: "bytes that do not start a gzip member" },
  14: { kind: "damaged", what: "a compression method other than deflate" },
};

const UNKNOWN: InflateFailure = { kind: "damaged", what: "data that does not decode" };

/** Our phrase for what an inflater threw (anything else than a known data error: "data that does not decode"). */
export function inflateFailure(error: unknown): InflateFailure {
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : null;
  return typeof code === "number" ? (PHRASES[code] ?? UNKNOWN) : UNKNOWN;
}
