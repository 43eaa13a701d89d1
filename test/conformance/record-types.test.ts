// A structure an agent writes is never reported as unknown: `check`'s summary record of every
// shared recording's session file (written by the real agents; the agents whose descriptors keep a
// catalogue of record types) lists no record type this version
// does not read. A new type a newer agent version writes fails here until it is read or skipped on
// purpose, with its reason, in the agent's catalogue.
import { expect, it } from "vitest";
import { runCliCaptured } from "../cli/cli-helpers";
import { describeShared } from "../support/fixtures";

const RECORDINGS = [
  "pi/print-openai-autocompact",
  "pi/rpc-anthropic-manualcompact",
  "senpi/print-openai-autocompact",
  "claude/print-autocompact-manualcompact",
  "codex/exec-autocompact",
  "qwen-code/p-continue-autocompress",
];

describeShared("record types of the recordings", (shared) => {
  for (const id of RECORDINGS) {
    it(`${id}: every record type the agent wrote is read or skipped on purpose`, async () => {
      const run = await runCliCaptured(["check", shared.case(id).sessionPath, "--tokenizer", "estimate"]);
      const summary = run.lines.find((line) => line.summary === "records");
      expect(summary, "check prints its summary record").toBeDefined();
      expect(summary!.unknown).toEqual([]);
      expect((summary!.read as unknown[]).length).toBeGreaterThan(0);
    });
  }
});
