// `export --format sts`: the session as a Hugging Face session trace, redacted by default (every
// seeded secret masked, each listed on stderr), unmasked with `--redact off`; `--out` writes the
// same text whole, and a file it cannot write leaves nothing behind; the file opens as a trace.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../src/core/session/index";
import { SECRET_EXAMPLES } from "../support/secret-examples";
import { PI_OPENAI, runCliText, seededSessionFile } from "./share-helpers";

const escaped = (secret: string) => JSON.stringify(secret).slice(1, -1);

describe("export --format sts", () => {
  it("is redacted by default, every masked value named on stderr; --redact off keeps the texts", async () => {
    const file = seededSessionFile();
    const redacted = await runCliText(["export", file, "--format", "sts"]);
    expect(redacted.code, redacted.stderr).toBe(0);
    for (const example of SECRET_EXAMPLES) expect(redacted.stdout).not.toContain(escaped(example.secret));
    expect(redacted.stderr).toMatch(/^redacted: /m);
    const plain = await runCliText(["export", file, "--format", "sts", "--redact", "off"]);
    expect(plain.code).toBe(0);
    expect(SECRET_EXAMPLES.some((example) => plain.stdout.includes(escaped(example.secret)))).toBe(true);
    // Both are session traces: a header line, then message envelopes.
    const lines = redacted.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: "session", harness: "pi", exportedBy: "contextscope" });
    expect(lines.slice(1).every((line) => line.type === "message")).toBe(true);
  });

  it("--out writes the same text, which opens as a trace; a file it cannot write leaves nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "contextscope-sts-"));
    const out = path.join(dir, "session.sts.jsonl");
    const printed = await runCliText(["export", PI_OPENAI, "--format", "sts"]);
    const written = await runCliText(["export", PI_OPENAI, "--format", "sts", "--out", out]);
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(printed.stdout);
    expect(readSessionText(printed.stdout, "session.sts.jsonl").formatId).toBe("hf-sts");
    const missing = path.join(dir, "no-such-folder", "session.sts.jsonl");
    const failed = await runCliText(["export", PI_OPENAI, "--format", "sts", "--out", missing]);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain("cannot write");
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(dir)).toEqual(["session.sts.jsonl"]);
  });
});
