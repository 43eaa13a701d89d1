// The redaction pass over JSON-like values and sessions: masked copy, review list by location,
// consciously unmasked ids, secret-named keys, opaque blobs skipped, inputs never mutated,
// idempotence, hostile nesting and `__proto__` keys.
import { describe, expect, it } from "vitest";
import type { Session, SessionEntry } from "../../../src/core/model";
import { SECRET_FIELD_KIND, TOO_DEEP_KIND, findingId, redactJson, redactSession, redactText } from "../../../src/core/redact";
import { B64, URLSAFE, fake } from "./helpers";

const githubToken = `gh${"p_"}${fake(36, undefined, 3)}`;
const openaiKey = `sk-${"proj-"}${fake(60, URLSAFE, 4)}`;

function entry(id: string, parentId: string | null, raw: Record<string, unknown>, line: number): SessionEntry {
  return { id, parentId, type: String(raw.type), timestamp: null, line, raw: { id, parentId, ...raw } };
}

function sessionWith(entries: SessionEntry[]): Session {
  return {
    formatId: "pi",
    formatLabel: "pi",
    fileName: "s.jsonl",
    formatVersion: 3,
    header: { type: "session", version: 3, id: "s1", cwd: "/home/u/app" },
    entries,
    warnings: [],
    lineCount: entries.length + 1,
  };
}

describe("redactJson", () => {
  const body = {
    model: "gpt-x",
    messages: [
      { role: "user", content: [{ type: "text", text: `please use ${githubToken} to push` }] },
      { role: "tool", content: `OPENAI_API_KEY=${openaiKey}\nDEBUG=1` },
    ],
    env: { DB_PASSWORD: "Zq81!mm", HOME: "/home/u" },
  };

  it("masks every secret and lists it by path and range", () => {
    const { value, findings } = redactJson(body);
    expect(JSON.stringify(value)).not.toContain(githubToken);
    expect(JSON.stringify(value)).not.toContain(openaiKey);
    expect(JSON.stringify(value)).not.toContain("Zq81!mm");
    expect(findings.map((f) => [f.path, f.kind])).toEqual([
      ["messages[0].content[0].text", "github-token"],
      ["messages[1].content", "openai-api-key"],
      ["env.DB_PASSWORD", SECRET_FIELD_KIND],
    ]);
    const first = findings[0]!;
    expect(first.start).toBe("please use ".length);
    expect(first.end - first.start).toBe(githubToken.length);
    expect(first.length).toBe(githubToken.length);
    expect(first.masked).toBe(`ghp_${githubToken.slice(4, 8)}\u2026[redacted 28 chars]\u2026${githubToken.slice(-4)}`);
    expect(first.id).toBe(findingId("github-token", "messages[0].content[0].text", first.start, first.end));
    expect(first.unmasked).toBe(false);
    expect(value.env.DB_PASSWORD).toBe("[redacted 7 chars]");
  });

  it("keeps consciously unmasked values and flags them in the review list", () => {
    const { findings } = redactJson(body);
    const keep = findings[0]!.id;
    const second = redactJson(body, { unmasked: [keep] });
    expect(second.value.messages[0]!.content[0]).toEqual({ type: "text", text: `please use ${githubToken} to push` });
    expect(JSON.stringify(second.value)).not.toContain(openaiKey);
    expect(second.findings.find((f) => f.id === keep)?.unmasked).toBe(true);
    expect(second.findings.filter((f) => f.unmasked)).toHaveLength(1);
  });

  it("ids are stable across runs", () => {
    expect(redactJson(body).findings.map((f) => f.id)).toEqual(redactJson(body).findings.map((f) => f.id));
  });

  it("never mutates its input and shares unchanged subtrees", () => {
    const before = JSON.stringify(body);
    const { value } = redactJson(body);
    expect(JSON.stringify(body)).toBe(before);
    expect(value).not.toBe(body);
    expect(value.messages[0]).not.toBe(body.messages[0]);
    const clean = { a: { b: ["c"] } };
    expect(redactJson(clean).value).toBe(clean);
  });

  it("is idempotent: redacting a redacted value finds nothing more", () => {
    const once = redactJson(body).value;
    const twice = redactJson(once);
    expect(twice.findings).toEqual([]);
    expect(twice.value).toBe(once);
    const text = `TOKEN=${openaiKey} Authorization: Bearer ${fake(40, URLSAFE, 9)} postgres://u:pw123456@h/db`;
    const redacted = redactText(text).text;
    expect(redactText(redacted).findings).toEqual([]);
  });

  it("masks strings under secret-named keys, keeping an auth scheme visible", () => {
    const { value, findings } = redactJson({ headers: { Authorization: "Bearer abc", "x-api-key": "k1" }, apiKey: "${KEY}", tokens: ["t"] });
    expect(value.headers.Authorization).toBe("Bearer [redacted 3 chars]");
    expect(value.headers["x-api-key"]).toBe("[redacted 2 chars]");
    expect(value.apiKey).toBe("${KEY}");
    expect(value.tokens).toEqual(["t"]);
    expect(findings.map((f) => f.path)).toEqual(["headers.Authorization", 'headers["x-api-key"]']);
  });

  it("leaves ordinary image data and provider signatures alone, but masks a secret held in one", () => {
    const image = { type: "image", mimeType: "image/png", data: `iVBORw0KGgo${fake(200, B64, 3)}` };
    const signed = { type: "thinking", thinking: "hm", thinkingSignature: `Eq${fake(120, B64, 4)}` };
    const clean = redactJson({ content: [image, signed] });
    expect(clean.findings).toEqual([]);
    expect(clean.value.content[0]).toBe(image);
    const leaking = { type: "thinking", thinking: "hm", thinkingSignature: `sig ${githubToken}` };
    const { value, findings } = redactJson({ content: [leaking] });
    expect(findings.map((f) => f.path)).toEqual(["content[0].thinkingSignature"]);
    expect(JSON.stringify(value)).not.toContain(githubToken);
  });

  it("replaces values nested deeper than the limit instead of overflowing the stack", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 5000; i++) deep = [deep];
    const { value, findings } = redactJson(deep);
    expect(findings.some((f) => f.kind === TOO_DEEP_KIND)).toBe(true);
    expect(JSON.stringify(value)).toContain("nested too deeply");
  });

  it("copies objects with a __proto__ own key without touching any prototype", () => {
    const hostile = JSON.parse(`{"__proto__": {"polluted": "yes", "password": "x1"}, "token": "${fake(20, undefined, 5)}"}`) as Record<string, unknown>;
    const { value } = redactJson(hostile);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((value as Record<string, unknown>).polluted).toBeUndefined();
    const inner = Object.getOwnPropertyDescriptor(value, "__proto__")?.value as Record<string, unknown>;
    expect(inner.password).toBe("[redacted 2 chars]");
  });
});

describe("redactSession", () => {
  const entries = [
    entry("a", null, { type: "message", message: { role: "user", content: `key is ${githubToken}` } }, 2),
    entry("b", "a", { type: "message", message: { role: "assistant", content: [{ type: "text", text: "ok" }] } }, 3),
  ];
  const session = sessionWith(entries);

  it("paths name the entry and the field; structural fields stay intact", () => {
    const { value, findings } = redactSession(session);
    expect(findings.map((f) => f.path)).toEqual(["entries[0].raw.message.content"]);
    expect(value.entries[0]!.raw.id).toBe("a");
    expect(value.entries[1]).toBe(session.entries[1]);
    expect(JSON.stringify(value)).not.toContain(githubToken);
    expect(session.entries[0]!.raw.message).toEqual({ role: "user", content: `key is ${githubToken}` });
  });

  it("returns the same session when there is nothing to mask", () => {
    const clean = sessionWith([entries[1]!]);
    expect(redactSession(clean).value).toBe(clean);
  });

  it("uses the caller's entry indexes in paths", () => {
    const { findings } = redactSession(session, { entryIndexOf: (_entry, index) => index + 40 });
    expect(findings[0]!.path).toBe("entries[40].raw.message.content");
  });

  it("redacts the header too", () => {
    const withSecretHeader = { ...session, header: { type: "session", cwd: `/tmp/${githubToken}` } };
    expect(redactSession(withSecretHeader).findings.map((f) => f.path)).toContain("header.cwd");
  });
});
