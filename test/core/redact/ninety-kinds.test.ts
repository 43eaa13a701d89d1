// Ninety secret kinds (./kinds.ts: the 60 of the second probe, the 30 of the third) planted in a
// generated pi session and a generated Claude Code session — in the user's text, a tool call's
// arguments, a tool's output and (Claude Code) the working directory the system prompt names —
// then taken out through every output: the request exported as JSON and as curl in every provider
// shape, a share link reopened (branch and full scope), and `check`'s secret finding. No value
// may come out of a redacting output, and the same export without redaction must hold them all
// (so the test can fail). A summary whose messages run together hides no prefixed token either.
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../src/core/model";
import { readSessionText } from "../../../src/core/session/index";
import { redactJson } from "../../../src/core/redact";
import { secretDetector, findSharedSecrets } from "../../../src/core/check/secretDetector";
import { checkSecrets } from "../../../src/core/simulate/findings/secrets";
import { assistant, toText, user } from "../agents/claude-code/helpers";
import { itKeepsPlantedSecretsOut } from "../../support/plantedSecretOutputs";
import { ALL_KINDS, EARLIER_KINDS, THIRD_KINDS, leakedKinds } from "./kinds";

/** Every kind's line, blank lines between (so no find runs into the next kind's). */
const TRANSCRIPT = ALL_KINDS.map(({ line }) => line).join("\n\n");

/**
 * Values that are secrets by their shape alone (not by the words around them) and can stand as a
 * path segment: planted in the working directory too.
 */
const PATH_SAFE = ALL_KINDS.filter(({ secret }) => /^[A-Za-z0-9_.:=+-]+$/.test(secret) && findSharedSecrets(`/home/dev/${secret}/src`).some((match) => match.value.includes(secret)));
const CWD = `/home/dev/${PATH_SAFE.map(({ secret }) => secret).join("/")}`;

const line = (value: unknown): string => JSON.stringify(value);
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 };
const PI_SESSION = [
  line({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }),
  line({ type: "model_change", id: "m1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", provider: "openai", modelId: "gpt-4o" }),
  line({ type: "message", id: "u1", parentId: "m1", timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text: TRANSCRIPT }], timestamp: 1 } }),
  line({
    type: "message", id: "a1", parentId: "u1", timestamp: "2026-01-01T00:00:02.000Z",
    message: {
      role: "assistant", content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: TRANSCRIPT } }],
      api: "openai-completions", provider: "openai", model: "gpt-4o", usage, stopReason: "toolUse", timestamp: 2,
    },
  }),
  line({
    type: "message", id: "r1", parentId: "a1", timestamp: "2026-01-01T00:00:03.000Z",
    message: { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: TRANSCRIPT }], isError: false, timestamp: 3 },
  }),
  line({
    type: "message", id: "a2", parentId: "r1", timestamp: "2026-01-01T00:00:04.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "done" }], api: "openai-completions", provider: "openai", model: "gpt-4o", stopReason: "stop", timestamp: 4 },
  }),
].join("\n");

const CLAUDE_SESSION = toText(
  [
    user("u1", null, TRANSCRIPT),
    assistant("a1", "u1", "msg_1", [{ type: "tool_use", id: "b1", name: "Bash", input: { command: TRANSCRIPT } }]),
    user("r1", "a1", [{ type: "tool_result", tool_use_id: "b1", content: TRANSCRIPT }]),
    assistant("a2", "r1", "msg_2", [{ type: "text", text: "done" }]),
  ].map((entry) => ({ ...entry, cwd: CWD })),
);

describe("the ninety kinds", () => {
  it("are 60 earlier and 30 new, each named once", () => {
    expect(EARLIER_KINDS).toHaveLength(60);
    expect(THIRD_KINDS).toHaveLength(30);
    expect(new Set(ALL_KINDS.map(({ name }) => name)).size).toBe(90);
    expect(PATH_SAFE.length).toBeGreaterThanOrEqual(30);
  });

  for (const secretKind of ALL_KINDS) {
    it(`${secretKind.round} kind "${secretKind.name}" is masked by the shared detector and named by check`, () => {
      expect(leakedKinds(secretKind.line, [secretKind]), "the line holds the value").toEqual([secretKind.name]);
      const redacted = redactJson(secretKind.line, { catalogue: secretDetector() }).value;
      expect(leakedKinds(redacted, [secretKind])).toEqual([]);
      const body = { messages: [{ role: "user", content: secretKind.line }] };
      expect(checkSecrets(body, 1, "summariser request").length, "check names it").toBeGreaterThan(0);
    });
  }
});

const sessions: [string, string, string, PipelineOptions][] = [
  ["pi", PI_SESSION, "seeded.jsonl", { profile: "pi" }],
  ["Claude Code", CLAUDE_SESSION, "seeded-claude.jsonl", {}],
];

for (const [name, text, fileName, pipeline] of sessions) {
  describe(`a generated ${name} session with every kind in every place`, () => {
    const session: Session = readSessionText(text, fileName);

    itKeepsPlantedSecretsOut({ session, pipeline, leaked: (text) => leakedKinds(text), unredactedHolds: (found) => expect(found).toHaveLength(90) });
  });
}

describe("a summary whose messages run together", () => {
  // Tokens whose prefix is distinctive are found glued to the word before them.
  const PREFIXED = [
    "anthropic api03", "openrouter", "aws akia", "github ghp", "github fine-grained", "gitlab", "slack bot", "groq",
    "perplexity", "digitalocean", "atlassian", "docker hub", "vault service token", "grafana service account", "doppler",
    "linear", "postman", "pulumi", "age secret key", "notion", "sentry user", "pypi", "heroku v2", "planetscale password",
    "1password service account", "dynatrace", "grafana cloud", "easypost", "cloudflare origin ca",
  ];
  for (const kindName of PREFIXED) {
    it(`hides a glued ${kindName}`, () => {
      const secretKind = ALL_KINDS.find(({ name }) => name === kindName)!;
      const summary = `The user asked to deploy and the agent ran the scriptthen printed${secretKind.secret} and more text`;
      expect(leakedKinds(redactJson(summary, { catalogue: secretDetector() }).value, [secretKind])).toEqual([]);
    });
  }
});
