// Secrets that plain pattern scanning missed: inside tool-call arguments (which the OpenAI shapes
// send as a JSON string with escaped quotes), inside a base64-wrapped `.env` line, in a key wrapped
// by a newline, and in the fields the scan skipped (id, parentId, type, timestamp, signatures).
// A pi session seeded with each is exported in all four provider shapes, as JSON and as curl, and
// shared as a link: with redaction on, no seeded value appears in any of them.
import { describe, expect, it } from "vitest";
import { exportRequest } from "../../../src/app/shareExport";
import { API_IDS, type PipelineOptions } from "../../../src/core/model";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { readSessionText } from "../../../src/core/session/index";
import { redactText } from "../../../src/core/redact";
import { encodeBase64Url } from "../../../src/core/share";
import { reopenedShareLink } from "../../support/plantedSecretOutputs";
import { utf8Encode } from "../../../src/core/util/utf8";
import { B64, URLSAFE, fake } from "./helpers";

const anthropicKey = `sk-${"ant-"}api03-${fake(93, URLSAFE, 41)}AA`;
const envKey = `sk-${"ant-"}api03-${fake(93, URLSAFE, 42)}AA`;
const wrappedKey = `gh${"p_"}${fake(36, undefined, 43)}`;
const password = `Pw${fake(18, undefined, 44)}`;
const clientSecret = `cs${fake(30, undefined, 45)}`;
const assignedKey = fake(32, undefined, 46);
const idSecret = `gh${"p_"}${fake(36, undefined, 47)}`;
const timestampSecret = `gh${"p_"}${fake(36, undefined, 48)}`;
const typeSecret = `gh${"p_"}${fake(36, undefined, 49)}`;
const signatureSecret = `gh${"p_"}${fake(36, undefined, 50)}`;

const SEEDED = { anthropicKey, envKey, wrappedKey, password, clientSecret, assignedKey, idSecret, timestampSecret, typeSecret, signatureSecret };

/** base64 of a `.env` line, as `cat .env | base64` prints it. */
const envBase64 = encodeBase64Url(utf8Encode(`ANTHROPIC_API_KEY=${envKey}\n`)).replace(/-/g, "+").replace(/_/g, "/");

function line(value: unknown): string {
  return JSON.stringify(value);
}

const SESSION = [
  line({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" }),
  line({ type: "model_change", id: "m1", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", provider: "openai", modelId: "gpt-4o" }),
  line({ type: "message", id: "u1", parentId: "m1", timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "deploy it" }], timestamp: 1 } }),
  line({
    type: "message",
    id: "a1",
    parentId: "u1",
    timestamp: "2026-01-01T00:00:02.000Z",
    message: {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "need creds", thinkingSignature: `sig ${signatureSecret}` },
        {
          type: "toolCall",
          id: "call_1",
          name: "bash",
          arguments: { command: `curl -H "x-api-key: ${anthropicKey}" https://api.example.com`, password, client_secret: clientSecret, config: `api_key="${assignedKey}"` },
        },
      ],
      api: "openai-completions",
      provider: "openai",
      model: "gpt-4o",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 },
      stopReason: "toolUse",
      timestamp: 2,
    },
  }),
  line({
    type: "message",
    id: idSecret,
    parentId: "a1",
    timestamp: timestampSecret,
    message: {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "bash",
      content: [{ type: "text", text: `$ cat .env | base64\n${envBase64}\n$ echo $TOKEN\n${wrappedKey.slice(0, 20)}\n${wrappedKey.slice(20)}\n` }],
      isError: false,
      timestamp: 3,
    },
  }),
  line({ type: typeSecret, id: "x1", parentId: idSecret, timestamp: "2026-01-01T00:00:03.500Z" }),
  line({
    type: "message",
    id: "a2",
    parentId: "x1",
    timestamp: "2026-01-01T00:00:04.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "done" }], api: "openai-completions", provider: "openai", model: "gpt-4o", stopReason: "stop", timestamp: 4 },
  }),
].join("\n");

function leaked(text: string): string[] {
  return Object.entries(SEEDED)
    .filter(([, value]) => text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1)))
    .map(([name]) => name);
}

describe("secrets the plain scan missed", () => {
  const session = readSessionText(SESSION, "seeded.jsonl");
  const pipeline: PipelineOptions = { profile: "pi" };

  it("the seeded session is read whole, and the unredacted export does hold the secrets (the test can fail)", () => {
    expect(session.entries).toHaveLength(6);
    const analysis = analyzeSession(session, pipeline);
    expect(analysis.turns.length).toBe(2);
    const plain = exportRequest(session, { ...pipeline, api: "openai-completions" }, { target: { kind: "turn", turn: 2 }, format: "json", redact: false, unmasked: [] });
    expect(leaked(plain.text)).toEqual(expect.arrayContaining(["anthropicKey", "password", "clientSecret", "assignedKey"]));
    expect(plain.text).toContain(envBase64);
  });

  for (const api of API_IDS) {
    for (const format of ["json", "curl"] as const) {
      it(`with redaction on, no seeded value is in the ${api} export as ${format}`, () => {
        const result = exportRequest(session, { ...pipeline, api }, { target: { kind: "turn", turn: 2 }, format, redact: true, unmasked: [] });
        expect(leaked(result.text)).toEqual([]);
        expect(result.findings.length).toBeGreaterThan(0);
      });
    }
  }

  it("with redaction on, no seeded value is in a share link, for the branch and the full session", () => {
    for (const scope of ["branch", "full"] as const) {
      const payload = reopenedShareLink(session, pipeline, scope);
      expect(leaked(JSON.stringify(payload))).toEqual([]);
      // The tree survives: a masked id is masked the same way where it is a parent.
      const reopened = readSessionText(payload.session.lines.join("\n"), "seeded.jsonl", "pi");
      expect(analyzeSession(reopened, pipeline).turns.length).toBe(2);
    }
  });

  it("a base64-wrapped .env line is masked whole; ordinary base64 is left alone", () => {
    const { text } = redactText(`out: ${envBase64} end`);
    expect(text).not.toContain(envBase64);
    const harmless = encodeBase64Url(utf8Encode("just some ordinary words in a file, nothing secret here")).replace(/-/g, "+").replace(/_/g, "/");
    expect(redactText(`out: ${harmless}`).text).toContain(harmless);
    const binary = fake(200, B64, 51);
    expect(redactText(binary).text).toBe(binary);
  });

  it("a key wrapped by a newline is masked on both lines; the next assignment is not", () => {
    const text = `TOKEN=${wrappedKey.slice(0, 20)}\n${wrappedKey.slice(20)}\nNEXT_NAME=visible`;
    const redacted = redactText(text).text;
    expect(redacted).not.toContain(wrappedKey.slice(0, 20));
    expect(redacted).not.toContain(wrappedKey.slice(20));
    expect(redacted).toContain("NEXT_NAME=visible");
  });

  it("a JSON string's secrets are masked in place, its other text and layout kept", () => {
    const args = JSON.stringify({ command: "ls -la", password, nested: JSON.stringify({ client_secret: clientSecret }) });
    const { text } = redactText(args);
    expect(leaked(text)).toEqual([]);
    expect(text).toContain('"command":"ls -la"');
  });
});
