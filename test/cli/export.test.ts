// `export` command (issue #6): the JSON printed is byte for byte the app's Request view text (as
// sent and rewritten: provider shape, senpi notes, captured header), curl carries a placeholder
// key, redaction is on by default (every catalogue kind masked, listed on stderr, unmaskable by
// id), and bad arguments fail clearly.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { extractRequestHeader } from "../../src/core/providers";
import { OWN_SECRET_PATTERNS } from "../../src/core/redact/catalogue";
import { SECRET_EXAMPLES } from "../support/secret-examples";
import { PI_ANTHROPIC, PI_OPENAI, PI_OPENAI_HEADER, SENPI, readFixtureSession, runCliText, seededSessionFile, viewText } from "./share-helpers";
import { readFileSync } from "node:fs";

describe("export: JSON equals the Request view", () => {
  it("as recorded, redaction off: the Request view text plus a newline", async () => {
    const session = readFixtureSession(PI_OPENAI);
    for (const turn of [1, 3, 9]) {
      const run = await runCliText(["export", PI_OPENAI, "--turn", String(turn), "--redact", "off"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${viewText(session, { profile: "pi" }, turn)}\n`);
    }
  });

  it("redaction on (default) changes nothing in a session without secrets", async () => {
    const session = readFixtureSession(PI_ANTHROPIC);
    const run = await runCliText(["export", PI_ANTHROPIC, "--turn", "4"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${viewText(session, { profile: "pi" }, 4)}\n`);
  });

  it("rewritten: another provider shape, senpi notes on, and a captured header", async () => {
    const session = readFixtureSession(SENPI);
    const header = extractRequestHeader(JSON.parse(readFileSync(PI_OPENAI_HEADER, "utf8")), "001.json");
    const options: PipelineOptions = { profile: "senpi", notes: true, api: "anthropic-messages", header };
    const run = await runCliText([
      "export", SENPI, "--turn", "6", "--profile", "senpi", "--notes", "on", "--provider", "anthropic-messages", "--header", PI_OPENAI_HEADER, "--redact", "off",
    ]);
    expect(run.code).toBe(0);
    const expected = viewText(session, options, 6);
    expect(run.stdout).toBe(`${expected}\n`);
    // Really rewritten: the Anthropic shape, not the recorded Chat Completions one.
    expect(expected).not.toBe(viewText(session, { profile: "senpi" }, 6));
    expect(JSON.parse(run.stdout)).toHaveProperty("system");
  });

  it("curl: the endpoint of the shape, a placeholder key variable, the same JSON as data", async () => {
    const run = await runCliText(["export", PI_OPENAI, "--turn", "2", "--format", "curl"]);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith("curl 'https://api.openai.com/v1/chat/completions'")).toBe(true);
    expect(run.stdout).toContain('-H "Authorization: Bearer $OPENAI_API_KEY"');
    const session = readFixtureSession(PI_OPENAI);
    expect(run.stdout).toContain(`--data-raw '${viewText(session, { profile: "pi" }, 2).replace(/'/g, "'\\''")}'`);
    // The session records no system prompt or tools: the export says so.
    expect(run.stderr).toMatch(/does not record system prompt/);

    const anthropic = await runCliText(["export", PI_OPENAI, "--turn", "2", "--format", "curl", "--provider", "anthropic-messages"]);
    expect(anthropic.stdout).toContain('-H "x-api-key: $ANTHROPIC_API_KEY"');
  });
});

describe("export: redaction", () => {
  it("the seeded examples cover every kind of our own rules (gitleaks' are planted by the ninety-kinds test)", () => {
    expect(new Set(SECRET_EXAMPLES.map((example) => example.kind))).toEqual(new Set(OWN_SECRET_PATTERNS.map((pattern) => pattern.id)));
  });

  it("masks one secret of each catalogue kind by default, in JSON and curl, and lists them", async () => {
    const file = seededSessionFile();
    for (const format of ["json", "curl"]) {
      const run = await runCliText(["export", file, "--turn", "1", "--format", format]);
      expect(run.code).toBe(0);
      for (const { secret, kind } of SECRET_EXAMPLES) {
        expect(run.stdout.includes(secret), `${format}: ${kind}`).toBe(false);
        expect(run.stdout.includes(JSON.stringify(secret).slice(1, -1)), `${format}: ${kind} (escaped)`).toBe(false);
      }
      expect(run.stdout).toContain("[redacted");
      const listed = run.stderr.split("\n").filter((line) => line.startsWith("redacted: "));
      expect(listed.length).toBeGreaterThanOrEqual(SECRET_EXAMPLES.length);
    }
  });

  it("--redact off keeps the values; --unmask keeps exactly the named one", async () => {
    const file = seededSessionFile();
    const off = await runCliText(["export", file, "--turn", "1", "--redact", "off"]);
    const github = SECRET_EXAMPLES.find((example) => example.kind === "github-token")!;
    expect(off.stdout).toContain(github.secret);
    expect(off.stderr).not.toContain("redacted: ");

    const on = await runCliText(["export", file, "--turn", "1"]);
    const id = /\[(github-token@\S+)\]$/m.exec(on.stderr)?.[1];
    expect(id).toBeDefined();
    const unmasked = await runCliText(["export", file, "--turn", "1", "--unmask", id!]);
    expect(unmasked.stdout).toContain(github.secret);
    expect(unmasked.stderr).toContain(`unmasked: `);
    const openai = SECRET_EXAMPLES.find((example) => example.kind === "openai-api-key")!;
    expect(unmasked.stdout).not.toContain(openai.secret);
  });
});

describe("export: errors", () => {
  it("requires --turn, refuses a turn past the end and a bad format", async () => {
    const missing = await runCliText(["export", PI_OPENAI]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--turn <N> is required/);
    const past = await runCliText(["export", PI_OPENAI, "--turn", "999"]);
    expect(past.code).toBe(1);
    expect(past.stderr).toMatch(/does not exist/);
    const format = await runCliText(["export", PI_OPENAI, "--turn", "1", "--format", "yaml"]);
    expect(format.code).toBe(1);
    expect(format.stderr).toMatch(/--format must be one of json, curl/);
  });
});
