// `verify --write-facts` then `--facts`: what a recording's first capture of each model taught,
// kept in a file and applied to the same session without the captures. Truth is the recording:
// each rebuilt main request is compared with the recorded requests/NNN.json body by JSON.stringify
// (keys sorted here), and as many must be equal as when verify learns from the captures themselves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { describeShared } from "../support/fixtures";

function canonical(value: unknown): string {
  const sort = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sort);
    if (item !== null && typeof item === "object") {
      const record = item as Record<string, unknown>;
      return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sort(record[key])]));
    }
    return item;
  };
  return JSON.stringify(sort(value));
}

const CASES = [
  { id: "claude/print-autocompact-manualcompact", agent: "claude-code", version: "2.1.332", equal: 15 },
  { id: "pi/print-openai-autocompact", agent: "pi", version: null, equal: 15 },
  // Codex's bodies differ from the wire only in fields it declares not derivable: none is byte-equal either way.
  { id: "codex/exec-autocompact", agent: "codex", version: "0.171.0", equal: 0 },
];

describeShared("facts file from a recording's first captures", (shared) => {
  const dir = mkdtempSync(path.join(tmpdir(), "contextscope-facts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const item of CASES) {
    describe(item.id, () => {
      it("rebuilds as many main requests equal to the wire as the captures themselves", async () => {
        const fixture = shared.case(item.id);
        const file = path.join(dir, `${item.id.replace("/", "-")}.json`);
        const learnt = await runCliCaptured(["verify", fixture.sessionPath, "--captures", fixture.dir, "--write-facts", file]);
        expect(learnt.code, learnt.stderr).toBe(0);
        const facts = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
        expect(facts).toMatchObject({ format: "contextscope-facts", version: 1, agent: item.agent });
        // pi records no version of its own, and its SDK's user-agent ("OpenAI/JS 6.26.0") is not pi's.
        expect(facts.agentVersion).toBe(item.version);
        // The first model's header was learnt from the first main capture.
        const mains = fixture.requests("main");
        expect((facts.models as { header: { source: string } }[])[0]!.header.source).toBe(mains[0]!.file);

        // Rebuilt from the facts file alone, byte against byte with the recording.
        const rebuilt = await runCliCaptured(["requests", fixture.sessionPath, "--facts", file]);
        expect(rebuilt.code, rebuilt.stderr).toBe(0);
        expect(rebuilt.stderr).not.toContain("warning: facts file");
        const bodies = new Set(rebuilt.lines.filter((line) => typeof line.turn === "number").map((line) => canonical(line.request)));
        const equal = mains.filter((request) => bodies.has(canonical(JSON.parse(fixture.requestText(Number(request.file.slice(0, 3))))))).length;
        const withCaptures = learnt.lines.filter((line) => line.kind === "verify" && line.type === "main" && line.verdict === "equal").length;
        expect(equal).toBe(withCaptures);
        expect(equal).toBe(item.equal);
        if (item.equal > 0) {
          // Without the facts the session file alone does not carry them.
          const bare = await runCliCaptured(["requests", fixture.sessionPath]);
          const bareBodies = new Set(bare.lines.filter((line) => typeof line.turn === "number").map((line) => canonical(line.request)));
          expect(mains.filter((request) => bareBodies.has(canonical(JSON.parse(fixture.requestText(Number(request.file.slice(0, 3))))))).length).toBeLessThan(item.equal);
        }

        // verify against the facts file: the same verdicts as learning from the captures.
        const checked = await runCliCaptured(["verify", fixture.sessionPath, "--captures", fixture.dir, "--facts", file]);
        expect(checked.code, checked.stderr).toBe(0);
        expect(checked.lines.at(-1)!.text).toBe(learnt.lines.at(-1)!.text);
      });
    });
  }

  it("a facts file of another agent is refused, naming both", async () => {
    const claude = path.join(dir, "claude-print-autocompact-manualcompact.json");
    const run = await runCliCaptured(["requests", shared.case("pi/print-openai-autocompact").sessionPath, "--facts", claude]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("learnt from Claude Code");
    expect(run.stderr).toContain("this session was written by pi");
  });

  it("a facts file of another version of the agent is used, with a warning naming both versions", async () => {
    const fixture = shared.case("claude/print-autocompact-manualcompact");
    const facts = JSON.parse(readFileSync(path.join(dir, "claude-print-autocompact-manualcompact.json"), "utf8")) as Record<string, unknown>;
    const older = path.join(dir, "older.json");
    writeFileSync(older, JSON.stringify({ ...facts, agentVersion: "2.0.1" }));
    const run = await runCliCaptured(["prefix", fixture.sessionPath, "--facts", older, "--tokenizer", "estimate"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/warning: facts file .*2\.0\.1.*2\.1\.332/);
  });

  it("a file that is not a facts file is named", async () => {
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ model: "x", messages: [] }));
    const run = await runCliCaptured(["requests", shared.case("pi/print-openai-autocompact").sessionPath, "--facts", bad]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${bad} is not a Contextscope facts file`);
  });
});
