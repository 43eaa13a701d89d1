// The token view of a text: the text cut at o200k token boundaries, as token
// visualisers show it. Each piece is the decoded text of one token; a token that ends inside a
// multi-byte character is merged with the next ones until the bytes decode to the text at that
// point, so the pieces always join back to the text (a U+FFFD the text itself holds included). Exact for OpenAI shapes (TK-1); the caller labels other shapes estimates.
// Needs the o200k table loaded (tables.ts).
import { o200kEncoding } from "./tables";

export interface TokenPieces {
  /** Decoded pieces in order; `pieces.join("") === text` up to `maxTokens`. */
  pieces: string[];
  /** Tokens of the whole text. */
  tokenCount: number;
  /** True when only the first `maxTokens` tokens are returned. */
  truncated: boolean;
}

/** Tokens merged into one piece at most while waiting for a character boundary. */
const MAX_PENDING_TOKENS = 256;

export function tokenPieces(text: string, maxTokens = 20_000): TokenPieces {
  const encoding = o200kEncoding();
  const decode = (tokens: number[]) => encoding.decode(tokens);
  const tokens = encoding.encode(text);
  const shown = tokens.length > maxTokens ? tokens.slice(0, maxTokens) : tokens;
  const pieces: string[] = [];
  let pending: number[] = [];
  let offset = 0;
  for (const token of shown) {
    pending.push(token);
    // A run of tokens that never ends on a character boundary becomes one piece, made at the end
    // (decoding it again for every token would take quadratic time on a hostile text).
    if (pending.length > MAX_PENDING_TOKENS) continue;
    const piece = decode(pending);
    // An incomplete UTF-8 sequence decodes to U+FFFD, which is not the text at this point: wait
    // for the rest of the character. A token can hold the end of one character and the start of
    // the next, so that may take more tokens than a character has bytes.
    if (!text.startsWith(piece, offset)) continue;
    pieces.push(piece);
    offset += piece.length;
    pending = [];
  }
  if (pending.length > 0) pieces.push(decode(pending));
  return { pieces, tokenCount: tokens.length, truncated: shown.length < tokens.length };
}
