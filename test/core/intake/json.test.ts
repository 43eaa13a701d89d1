// What a `.json` file is, from its head: a session a reader recognises, an agent's side file of
// notes, or neither (a captured request).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { intakeHeadLength, jsonRole } from "../../../src/core/intake/index";
import { fixturePath } from "../../support/fixtures";

function role(name: string, text: string) {
  const bytes = new TextEncoder().encode(text);
  return jsonRole({ name, size: bytes.length, head: bytes.subarray(0, intakeHeadLength(name, bytes.length, { together: true })) });
}

describe("jsonRole", () => {
  it("tells sessions, note files and captured requests apart", () => {
    const exported = readFileSync(fixturePath("opencode/run-autocompact/session/export.json"), "utf8");
    const rows: [string, string, ReturnType<typeof jsonRole>][] = [
      ["export.json", exported, "session"],
      ["compact-export.json", JSON.stringify(JSON.parse(exported)), "session"],
      ["007.json", readFileSync(fixturePath("opencode/run-autocompact/requests/007.json"), "utf8"), null],
      ["projects.json", JSON.stringify({ projects: { "/home/dev/notes": "notes" } }), "side file"],
      ["other.json", JSON.stringify({ projects: { "/home/dev/notes": "notes" } }), null],
      ["projects.json", '{"name":"x"}', null],
      ["broken.json", "{", null],
    ];
    for (const [name, text, expected] of rows) expect([name, role(name, text)]).toEqual([name, expected]);
  });
});
