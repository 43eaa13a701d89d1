// A library row says which session its file is and whose sub-agent it is, as the agent tells
// (a Codex child rollout names its parent thread), so the library puts a child with its parent;
// a file of an agent that does not say has neither. The summary pass's row says the same.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { libraryRowFacts, libraryRowFromBytes } from "../../src/app/libraryRow";
import { readSessionText } from "../../src/core/session/index";
import { fixtureCase, fixturePath } from "../support/fixtures";

const DIR = "codex/spawn-agents/sessions/2026/03/01";
const read = (file: string) => readSessionText(readFileSync(file, "utf8"), path.basename(file))!;
const rollout = (suffix: string) => read(fixturePath(`${DIR}/rollout-2026-03-01T10-00-0${suffix}.jsonl`));

describe("a library row's lineage", () => {
  it("a Codex parent rollout, a child and a grandchild", () => {
    expect(libraryRowFacts(rollout("0-0199a000-0000-7000-8000-00000000a001"))).toMatchObject({ sessionId: "0199a000-0000-7000-8000-00000000a001", parentSessionId: null });
    expect(libraryRowFacts(rollout("3-0199a000-0000-7000-8000-00000000c001"))).toMatchObject({ sessionId: "0199a000-0000-7000-8000-00000000c001", parentSessionId: "0199a000-0000-7000-8000-00000000a001" });
    expect(libraryRowFacts(rollout("5-0199a000-0000-7000-8000-00000000d001"))).toMatchObject({ parentSessionId: "0199a000-0000-7000-8000-00000000c001" });
  });

  it("the same lineage from the summary pass (the library's quick row)", () => {
    const quick = (suffix: string) => {
      const file = fixturePath(`${DIR}/rollout-2026-03-01T10-00-0${suffix}.jsonl`);
      return libraryRowFromBytes([{ name: path.basename(file), bytes: new Uint8Array(readFileSync(file)) }]);
    };
    expect(quick("0-0199a000-0000-7000-8000-00000000a001")).toMatchObject({ pass: "summary", sessionId: "0199a000-0000-7000-8000-00000000a001", parentSessionId: null });
    expect(quick("3-0199a000-0000-7000-8000-00000000c001")).toMatchObject({ pass: "summary", sessionId: "0199a000-0000-7000-8000-00000000c001", parentSessionId: "0199a000-0000-7000-8000-00000000a001" });
    expect(quick("5-0199a000-0000-7000-8000-00000000d001")).toMatchObject({ pass: "summary", parentSessionId: "0199a000-0000-7000-8000-00000000c001" });
  });

  it("a session of an agent that does not link files by their content", () => {
    const facts = libraryRowFacts(read(fixtureCase("pi/print-openai-autocompact").sessionPath));
    expect(facts.sessionId).toBeNull();
    expect(facts.parentSessionId).toBeNull();
  });
});
