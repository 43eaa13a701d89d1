// The o200k_base tokenizer: ai-tokenizer's BPE encoder (the fastest exact o200k counter measured,
// bench/tokenizers.bench.ts), fed with the o200k_base ranks as gpt-tokenizer ships them (an array
// indexed by rank: the token's text, or its bytes when they are not valid UTF-8). ai-tokenizer's
// own o200k_base module holds its decoder as an object literal with 200,000 integer keys, which
// headless Chromium took 50–70 s to evaluate (a plain array or JSON.parse of the same data: under
// 0.4 s; docs/performance.md), so its tables are rebuilt here from the array instead, in one pass.
// Special-token strings are counted as ordinary text (no special tokens are registered), as a
// provider counts them in a session's text.
import { withLongPieces, type PlainEncoder } from "./long-pieces";

export type O200kRanks = readonly (string | readonly number[])[];

/** Lexicographic order of byte strings (shorter first on a common prefix): the binary search's. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const common = Math.min(a.length, b.length);
  for (let i = 0; i < common; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** ai-tokenizer's Encoding (string ranks, sorted byte ranks, decoder) for `ranks` and `pattern`. */
export function o200kEncodingData(ranks: O200kRanks, pattern: string) {
  // A prototype-free object: a piece such as "constructor" must not find Object's members.
  const stringEncoder = Object.create(null) as Record<string, number>;
  const binaryEncoder: [Uint8Array, number][] = [];
  const decoder: (string | Uint8Array)[] = new Array(ranks.length);
  ranks.forEach((token, rank) => {
    if (typeof token === "string") {
      stringEncoder[token] = rank;
      decoder[rank] = token;
    } else {
      const bytes = Uint8Array.from(token);
      binaryEncoder.push([bytes, rank]);
      decoder[rank] = bytes;
    }
  });
  binaryEncoder.sort((a, b) => compareBytes(a[0], b[0]));
  return { name: "o200k_base", pat_str: pattern, special_tokens: {}, stringEncoder, binaryEncoder, decoder };
}

/** Loads the ranks and the encoder and builds the tokenizer (tables.ts calls this once). */
export async function loadO200kTokenizer(): Promise<PlainEncoder> {
  const [{ Tokenizer }, { default: ranks }, { O200K_TOKEN_SPLIT_REGEX }] = await Promise.all([
    import("ai-tokenizer"),
    import("gpt-tokenizer/bpeRanks/o200k_base"),
    import("gpt-tokenizer/encodingParams/constants"),
  ]);
  const data = o200kEncodingData(ranks, O200K_TOKEN_SPLIT_REGEX.source);
  // A long run of one character is one piece, which the library merges in quadratic time.
  return withLongPieces(new Tokenizer(data), { pattern: data.pat_str, stringEncoder: data.stringEncoder, binaryEncoder: data.binaryEncoder });
}
