// What the file lacks is named in words: the "not recorded" labels every agent's rebuild gives (the
// Details panel lists them, the top bar reads them to say "system prompt" or "tools") hold no rule
// id or code name, and a request that shows a system prompt or tools as not recorded says so in its
// labels, so the top bar never claims the file holds what the request lacks.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../src/core/model";
import { readSessionText } from "../../src/core/session/index";
import { sessionProfileOf } from "../../src/core/session/agents";
import { buildAllTurnRequests } from "../../src/core/session/turnRequests";
import { codeWords } from "../support/codeWords";
import { loadDatabase } from "../../src/cli/sqlite";
import { describeShared, findSessionFile, fixtureCase, fixturePath } from "../support/fixtures";

const COMMITTED = [
  "pi/print-openai-autocompact",
  "pi/rpc-anthropic-manualcompact",
  "senpi/print-openai-autocompact",
  "claude/print-autocompact-manualcompact",
  "codex/exec-autocompact",
  "opencode/run-autocompact",
];

/** Every turn's labels are words, and a system prompt or tools shown as not recorded is named. */
function checkLabels(session: Session, what: string): void {
  const options: PipelineOptions = { profile: sessionProfileOf(session) ?? "pi", api: null, header: null, leafId: null };
  const requests = buildAllTurnRequests(session, options);
  expect(requests.length, what).toBeGreaterThan(0);
  for (const [index, request] of requests.entries()) {
    const where = `${what} turn ${index + 1}`;
    expect(request.notRecorded.flatMap(codeWords), `${where}: ${request.notRecorded.join(" | ")}`).toEqual([]);
    const body = JSON.stringify(request.body);
    const markers = [...body.matchAll(/"\$notRecorded":"([^"]*)"/g)].map((match) => match[1]!.toLowerCase());
    if (markers.some((marker) => marker.startsWith("system"))) expect(request.notRecorded.some((label) => /^system/i.test(label)), `${where}: ${request.notRecorded.join(" | ")}`).toBe(true);
    if (markers.some((marker) => marker.startsWith("tool"))) expect(request.notRecorded.some((label) => /^(tool|system prompt and tools)/i.test(label)), `${where}: ${request.notRecorded.join(" | ")}`).toBe(true);
  }
}

describe("not-recorded labels on the committed recordings", () => {
  for (const id of COMMITTED) it(id, () => checkLabels(fixtureCase(id).session, id));
  it("kilo/run-autocompact (its database)", async () => checkLabels(await loadDatabase(fixturePath("kilo/run-autocompact/session/kilo.db")), "kilo"));
  it("crush/hand-made (its database)", async () => checkLabels(await loadDatabase(fixturePath("crush/hand-made/crush.db")), "crush"));
  it("kimi-code/run-autocompact", () => {
    const file = fixturePath("kimi-code/run-autocompact/session/wire.jsonl");
    checkLabels(readSessionText(readFileSync(file, "utf8"), "wire.jsonl"), "kimi-code");
  });
  it("copilot-cli: the recording and the event-type logs", () => {
    for (const file of ["copilot-cli/recording-1.0.102/events.jsonl", "copilot-cli/session-state/5e1f0c2a-7b3d-4c11-9a42-0d6f8e2b1c01/events.jsonl", "copilot-cli/session-state/9c2d4e6f-1a3b-4d5e-8f70-112233445566/events.jsonl"]) {
      checkLabels(readSessionText(readFileSync(fixturePath(file), "utf8"), "events.jsonl"), file);
    }
  });
  it("deepseek-harness/headless-deepseek-manualcompact (its decoded artifact)", () => {
    const file = findSessionFile(fixturePath("deepseek-harness/headless-deepseek-manualcompact/session-decoded"), ".jsonl");
    checkLabels(readSessionText(readFileSync(file, "utf8"), "session.jsonl"), "deepseek-harness");
  });
});

describeShared("not-recorded labels on the shared recordings and real files", (shared) => {
  for (const id of ["gemini-cli/p-resume-autocompress", "qwen-code/p-continue-autocompress"]) it(id, () => checkLabels(shared.case(id).session, id));
  for (const file of ["realworld/claude-code/codemie-session-624a4a58-compaction.jsonl", "realworld/codex/codemie-rollout-0.128-desktop.jsonl"]) {
    it(file, () => checkLabels(readSessionText(readFileSync(shared.path(file), "utf8"), file), file));
  }
});
