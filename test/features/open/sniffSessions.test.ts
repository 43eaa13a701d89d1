// The worker tells which dropped `.json` files are sessions: an opencode export (pretty-printed,
// or compact on one line longer than what is looked at) is; a captured request and a recorder's
// `.meta.json` beside it are not. A pretty-printed Codex rollout is a session too, also when its
// first value (the session_meta with the base instructions) is longer than the first look.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sniffSessions } from "../../../src/features/open/sniffSessions";

const CASE = path.resolve(__dirname, "../../fixtures/opencode/run-autocompact");
const read = (relative: string) => readFileSync(path.join(CASE, relative), "utf8");

describe("sniffSessions", () => {
  it("recognises an opencode export among captured requests, in the order given", async () => {
    const exported = read("session/export.json");
    const compact = JSON.stringify(JSON.parse(exported));
    expect(compact.length).toBeGreaterThan(16 * 1024);
    const files = [
      new File([read("requests/007.json")], "007.json"),
      new File([exported], "export.json"),
      new File([read("requests/012.meta.json")], "012.meta.json"),
      new File([compact], "compact-export.json"),
    ];
    expect(await sniffSessions(files)).toEqual([null, "session", null, "session"]);
  });

  it("recognises a pretty-printed Codex rollout whose first value is longer than the first look", async () => {
    const folder = path.resolve(__dirname, "../../fixtures/codex/spawn-agents/sessions/2026/03/01");
    const parent = readFileSync(path.join(folder, "rollout-2026-03-01T10-00-00-0199a000-0000-7000-8000-00000000a001.jsonl"), "utf8");
    const lines = parent.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as { payload: Record<string, unknown> });
    // Long base instructions, as real rollouts carry, spread over lines by the pretty-printing.
    lines[0]!.payload.base_instructions = { text: "You are Codex.\n".repeat(3000) };
    const pretty = lines.map((line) => JSON.stringify(line, null, 2)).join("\n");
    expect(pretty.indexOf("turn_context")).toBeGreaterThan(16 * 1024);
    expect(await sniffSessions([new File([pretty], "rollout.json"), new File([read("requests/007.json")], "007.json")])).toEqual(["session", null]);
  });

  it("tells an agent's side file from a session: Gemini CLI's projects.json", async () => {
    const projects = JSON.stringify({ projects: { "/home/dev/notes": "notes" } });
    expect(await sniffSessions([new File([projects], "projects.json"), new File([projects], "other.json")])).toEqual(["side file", null]);
  });
});
