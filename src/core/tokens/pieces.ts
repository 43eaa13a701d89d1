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
    const piece = decode(pending);
    // An incomplete UTF-8 sequence decodes to U+FFFD, which is not the text at this point: wait
    // for the rest of the character (a character is at most 4 bytes, so 4 tokens).
    if (!text.startsWith(piece, offset) && pending.length < 4) continue;
    pieces.push(piece);
    offset += piece.length;
    pending = [];
  }
  if (pending.length > 0) pieces.push(decode(pending));
  return { pieces, tokenCount: tokens.length, truncated: shown.length < tokens.length };
}
