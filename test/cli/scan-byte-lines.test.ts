// The summary pass's line walk: every line decoded when nothing is asked, and with markers only
// the lines that hold one, whatever their place (first, last without a line break, after CRLF).
import { describe, expect, it } from "vitest";
import { byteLines } from "../../src/cli/scan/byteLines";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("scan's byte lines", () => {
  const text = '{"type":"assistant","a":1}\r\n{"type":"user","t":"é"}\n\n{"x":"compact_boundary"}\n{"type":"user"}\n{"type":"assistant","z":"ü"}';

  it("yields every line, its CR dropped, when no filter is given", () => {
    expect([...byteLines(bytes(text))]).toEqual(['{"type":"assistant","a":1}', '{"type":"user","t":"é"}', "", '{"x":"compact_boundary"}', '{"type":"user"}', '{"type":"assistant","z":"ü"}']);
  });

  it("yields only the lines holding a wanted marker, the last line without a break included", () => {
    const wanted = (contains: (marker: string) => boolean) => contains('"assistant"') || contains("compact_boundary");
    expect([...byteLines(bytes(text), wanted)]).toEqual(['{"type":"assistant","a":1}', '{"x":"compact_boundary"}', '{"type":"assistant","z":"ü"}']);
  });

  it("answers each line by its own bytes: a marker later in the file is not this line's", () => {
    const asked: boolean[] = [];
    const wanted = (contains: (marker: string) => boolean) => {
      const answer = contains("needle");
      asked.push(answer);
      return answer;
    };
    expect([...byteLines(bytes("a\nb\nc needle\nd\nneedle"), wanted)]).toEqual(["c needle", "needle"]);
    expect(asked).toEqual([false, false, true, false, true]);
  });

  it("gives each line's head without its CR, at most the length asked", () => {
    const heads: string[] = [];
    const wanted = (_contains: (marker: string) => boolean, head: (length: number) => string) => {
      heads.push(head(6));
      return false;
    };
    expect([...byteLines(bytes('{"a":1234}\r\nab\r\n\n{"b":2}'), wanted)]).toEqual([]);
    expect(heads).toEqual(['{"a":1', "ab", "", '{"b":2']);
  });
});
