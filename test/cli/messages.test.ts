// `requests` on a chat message list (FM-RQ-5, FM-RQ-6): one line per turn plus the next request,
// hermes' summary keys stripped from what is sent, the summary shown as a compaction row.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";

describe("cli requests on a chat message list", () => {
  it("prints each request in Chat Completions shape without hermes' own keys", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "contextscope-messages-"));
    const file = path.join(dir, "hermes-messages.json");
    const list = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "[summary]", _compressed_summary: true, _compressed_summary_has_user_turn: true },
    ];
    writeFileSync(file, JSON.stringify(list, null, 2));
    const run = await runCliCaptured(["requests", file]);
    expect(run.code).toBe(0);
    const turns = run.lines.filter((line) => "turn" in line);
    expect(turns.map((line) => line.turn)).toEqual([1, 2]);
    const last = turns[1]!.request as { messages: unknown[] };
    expect(last.messages).toEqual([list[0], list[1], { role: "user", content: "[summary]" }]);
    expect(run.lines.some((line) => line.kind === "compaction" && line.entryId === "m2")).toBe(true);
  });
});
