// The CLI on Gemini chats that are not one: each problem is said on standard error with its line,
// and the array-wrapped chat's turn is rebuilt (nothing valid lost).
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../cli-helpers";

describe("requests on a Gemini chat that is not one", () => {
  it("a chat in a JSON array: a warning, and its turn", async () => {
    const run = await runCliCaptured(["requests", "test/fixtures/hostile/gemini-chat-in-array.json"]);
    expect(run.stderr).toMatch(/line 2: a whole Gemini CLI chat/);
    expect(run.lines).toHaveLength(1);
  });
  it("a messages key written twice: a warning naming the key and its line", async () => {
    const run = await runCliCaptured(["requests", "test/fixtures/hostile/gemini-chat-duplicate-keys.json"]);
    expect(run.stderr).toContain('"messages" (line 33)');
  });
});
