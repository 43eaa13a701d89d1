// The o200k tokenizer built from gpt-tokenizer's ranks (o200kTable.ts) counts and encodes exactly
// as gpt-tokenizer does, on texts that reach every path: byte-level tokens (invalid UTF-8 pieces,
// emoji, CJK, Korean), special-token strings counted as text, names of Object's members.
import { countTokens, encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { o200kEncodingData } from "../../../src/core/tokens/o200kTable";
import { o200kEncoding } from "../../../src/core/tokens/tables";

const TEXTS = [
  "hello world",
  "The quick brown fox jumps over the lazy dog.\n\n\tindented\r\n",
  "사용자가 파일을 열었습니다. 택배 KR085137201 조회",
  "日本語のテキストと中文混合 🙂🚀👩🏽‍💻 emoji",
  "<|endoftext|> and <|endofprompt|> are text here",
  "constructor __proto__ toString hasOwnProperty valueOf",
  "x".repeat(5000),
  "   \n\n\n      spaces   ",
  '{"role":"user","content":[{"type":"text","text":"ls -la /tmp && echo $?"}]}',
  "\u00e9\u0301 combining, \uFFFD replacement, \u0000 nul",
  "192.0.2.140 - - [01/Mar/2024:10:00:01 +0000] \"GET /api/cart HTTP/1.1\" 200 28527",
];

describe("o200k table", () => {
  it("counts and encodes as gpt-tokenizer", () => {
    const table = o200kEncoding();
    for (const text of TEXTS) {
      expect(table.count(text), text.slice(0, 40)).toBe(countTokens(text, { disallowedSpecial: new Set() }));
      expect(table.decode(table.encode(text))).toBe(text);
    }
    expect(table.encode("hello world")).toEqual(encode("hello world"));
  });

  it("keeps byte tokens sorted for the binary search and every rank in the decoder", () => {
    const data = o200kEncodingData(["a", [0xc3], [0x20, 0xc3], [0x20, 0xc2], "b"], "\\S+");
    expect(data.binaryEncoder.map(([bytes, rank]) => [[...bytes], rank])).toEqual([[[0x20, 0xc2], 3], [[0x20, 0xc3], 2], [[0xc3], 1]]);
    expect(data.stringEncoder["b"]).toBe(4);
    expect(data.stringEncoder["constructor"]).toBeUndefined();
    expect(data.decoder.length).toBe(5);
  });
});
