// The recorder's kind guess against the kinds the shared recordings' own meta files state (the
// recorder that made them knew which scripted step each request was).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { guessRequestKind, guessRequestKindAt } from "../../../src/core/captures/requestKind";
import { describeShared } from "../../support/fixtures";

describeShared("request kind guess", (shared) => {
  it("names every recorded request of every case with the kind its meta file states", () => {
    const wrong: string[] = [];
    let total = 0;
    for (const agent of readdirSync(shared.dir)) {
      let cases: string[];
      try {
        cases = shared.caseNames(agent);
      } catch {
        continue;
      }
      for (const name of cases) {
        let dir: string;
        try {
          dir = shared.case(`${agent}/${name}`).requestsDir;
        } catch {
          continue;
        }
        for (const file of readdirSync(dir).filter((f) => f.endsWith(".meta.json"))) {
          const meta = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { kind: string };
          const body: unknown = JSON.parse(readFileSync(path.join(dir, file.replace(".meta", "")), "utf8"));
          total++;
          if (guessRequestKind(body) !== meta.kind) wrong.push(`${agent}/${name}/${file}: ${meta.kind}, guessed ${guessRequestKind(body)}`);
        }
      }
    }
    expect(total).toBe(153);
    expect(wrong).toEqual([]);
  });
});

it("a body that is not a request is a main request (nothing to recognise)", () => {
  expect(guessRequestKind(null)).toBe("main");
  expect(guessRequestKind({ messages: [{ role: "user", content: "Write a file SUMMARY.md with a three-line summary of the project." }] })).toBe("main");
});

it("a token count is known by its path", () => {
  const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
  expect(guessRequestKindAt("/v1/messages/count_tokens?beta=true", body)).toBe("count");
  expect(guessRequestKindAt("/v1beta/models/gemini-2.5-flash:countTokens", body)).toBe("count");
  expect(guessRequestKindAt("/v1/messages?beta=true", body)).toBe("main");
});

it("a prompt Kilo replays after its compaction is a main request: the reminder naming the compaction is not the prompt's words", () => {
  const reminder = "\n\n<system-reminder>\nThe active agent has changed from compaction to code.\n</system-reminder>";
  const replayed = { messages: [{ role: "user", content: [{ type: "text", text: "\"Print docs/roadmap.md if there is one.\"" }, { type: "text", text: reminder }] }] };
  expect(guessRequestKind(replayed)).toBe("main");
  // The same words outside a reminder still name a summariser request.
  expect(guessRequestKind({ messages: [{ role: "user", content: "The active agent has changed from compaction to code." }] })).toBe("summary");
});

it("Kimi Code's summariser request is known by its handoff instruction, though it carries the tools", () => {
  const dir = path.join(__dirname, "../../fixtures/kimi-code/run-autocompact/requests");
  const kinds = readdirSync(dir)
    .filter((name) => /^\d{3}\.json$/.test(name))
    .sort()
    .map((name) => `${name} ${guessRequestKind(JSON.parse(readFileSync(path.join(dir, name), "utf8")))}`);
  expect(kinds.filter((line) => !line.endsWith(" main"))).toEqual(["009.json summary"]);
});
