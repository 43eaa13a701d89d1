// A JSONL session that was pretty-printed (`jq .` on each line, or the lines gathered into one
// pretty-printed array) reads like the JSONL it came from: the joiner hands on one value per
// line with the line it starts on, detection then recognises the agent, and a Codex parent
// rollout in that shape, dropped with its children, is the main session again.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksPrettyPrinted, PrettyJsonJoiner } from "../../../src/core/readers/pretty-lines";
import { detectFormatOrPretty, readSessionText } from "../../../src/core/session/read";
import { linkSessions } from "../../../src/core/session/threads";
import { buildTurnRequest } from "../../../src/core/session/pipeline";
import { repoPath } from "../../support/fixtures";

const FOLDER = repoPath("test/fixtures/codex/spawn-agents/sessions/2026/03/01");
const PARENT_FILE = readdirSync(FOLDER).find((name) => name.endsWith("a001.jsonl"))!;
const parentText = readFileSync(path.join(FOLDER, PARENT_FILE), "utf8");
const parentLines = parentText.split("\n").filter((line) => line.trim() !== "");
/** Each line's object spread over lines, two-space indented, as `jq .` writes it. */
const prettyLines = parentLines.map((line) => JSON.stringify(JSON.parse(line), null, 2)).join("\n");
/** The lines as one pretty-printed JSON array. */
const prettyArray = JSON.stringify(parentLines.map((line) => JSON.parse(line) as unknown), null, 2);

function joined(text: string): { text: string; line: number }[] {
  const joiner = new PrettyJsonJoiner();
  const out: { text: string; line: number }[] = [];
  const onValue = (value: string, line: number) => out.push({ text: value, line });
  text.split("\n").forEach((line, index) => joiner.push(line, index + 1, onValue));
  joiner.end(onValue);
  return out;
}

describe("PrettyJsonJoiner", () => {
  it("gives one compact value per object, numbered by the line it starts on", () => {
    const values = joined('{\n  "a": 1,\n  "b": "x}{\\"y"\n}\n{"c": [1,\n 2]}{"d":3}\n');
    expect(values).toEqual([
      { text: '{"a":1,"b":"x}{\\"y"}', line: 1 },
      { text: '{"c":[1,2]}', line: 5 },
      { text: '{"d":3}', line: 6 },
    ]);
  });

  it("reads the elements of a top-level array as the values", () => {
    expect(joined('[\n  {"a": 1},\n  {\n    "b": 2\n  }\n]').map((value) => value.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("hands on a value the file ends inside, as found, for the reader to report", () => {
    expect(joined('{"a": 1}\n{\n  "b": [1,').map((value) => value.text)).toEqual(['{"a":1}', '{   "b": [1,']);
  });

  it("tells a pretty-printed file from JSONL", () => {
    expect(looksPrettyPrinted(["", "{"])).toBe(true);
    expect(looksPrettyPrinted(["[", "  {"])).toBe(true);
    expect(looksPrettyPrinted(['{"type":"session_meta"}'])).toBe(false);
    expect(looksPrettyPrinted(["hello"])).toBe(false);
  });
});

describe("reading a pretty-printed Codex rollout", () => {
  const original = readSessionText(parentText, PARENT_FILE);

  for (const [shape, text] of [
    ["one object over several lines", prettyLines],
    ["one pretty-printed array", prettyArray],
  ] as const) {
    it(`reads ${shape} as the rollout it came from`, () => {
      const session = readSessionText(text, "parent.json");
      expect(session.formatId).toBe(original.formatId);
      expect(session.entries.length).toBe(original.entries.length);
      expect(session.warnings).toEqual([]);
      const options = { profile: "pi", leafId: null };
      expect(JSON.stringify(buildTurnRequest(session, options, 2).body)).toBe(JSON.stringify(buildTurnRequest(original, options, 2).body));
    });
  }

  it("is recognised from the head of the file (a dropped .json file is told from a captured request so)", () => {
    const head = prettyLines.split("\n").slice(0, 60);
    expect(detectFormatOrPretty(head, "parent.json")?.id).toBe(readSessionText(parentText, PARENT_FILE).formatId);
    expect(detectFormatOrPretty(['{', '  "model": "gpt-5",', '  "input": []', '}'], "capture.json")).toBeNull();
  });

  it("opens as the main session when dropped with its children, whatever their order", () => {
    const children = readdirSync(FOLDER)
      .filter((name) => name !== PARENT_FILE)
      .map((name) => readSessionText(readFileSync(path.join(FOLDER, name), "utf8"), name));
    const { session, unlinked } = linkSessions([...children, readSessionText(prettyLines, "parent-pretty.json")]);
    expect(session.fileName).toBe("parent-pretty.json");
    expect(unlinked).toEqual([]);
    expect(session.threads?.map((thread) => thread.label)).toEqual(["Ada (explorer)", "Cole (default)", "Brook (explorer)"]);
  });
});
