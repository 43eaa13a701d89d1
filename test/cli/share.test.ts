// `share` and `open` commands (issue #6): the fragment reopens the same view (turn, provider,
// notes, profile, tab) and the same request bodies; branch scope keeps only the path to the turn;
// a seeded session's link holds none of its secrets; `open` reads links, fragments and bundle
// files and refuses truncated, tampered, oversized, unknown-version and hostile payloads clearly.
import { deflateSync } from "fflate";
import { describe, expect, it } from "vitest";
import { buildTurnRequest } from "../../src/core/session/pipeline";
import { encodeBase64Url } from "../../src/core/share";
import { shareBundle } from "../../src/app/shareExport";
import { SECRET_EXAMPLES } from "../support/secret-examples";
import { PI_OPENAI, SENPI, readFixtureSession, runCliText, seededSessionFile, tempFile } from "./share-helpers";
import { readSessionText } from "../../src/core/session/index";

interface Opened {
  version: number;
  view: { turn: number; tab: string; profile: string; provider: string | null; notes: boolean; leafId: string | null };
  session: { fileName: string; formatId: string; scope: string; lines: string[]; entries: number };
}

async function shareThenOpen(args: string[]): Promise<{ fragment: string; opened: Opened; stderr: string }> {
  const share = await runCliText(["share", ...args]);
  expect(share.code, share.stderr).toBe(0);
  const fragment = share.stdout.trim();
  expect(fragment).toMatch(/^#v2=[A-Za-z0-9_-]+$/);
  const open = await runCliText(["open", `http://127.0.0.1:4173/${fragment}`]);
  expect(open.code, open.stderr).toBe(0);
  return { fragment, opened: JSON.parse(open.stdout) as Opened, stderr: share.stderr };
}

describe("share → open round trip", () => {
  it("restores the view and rebuilds the same request from the branch", async () => {
    const { opened, stderr } = await shareThenOpen([
      SENPI, "--turn", "7", "--profile", "senpi", "--notes", "on", "--provider", "openai-responses", "--tab", "messages",
    ]);
    expect(stderr).toMatch(/The link is/);
    expect(opened.version).toBe(2);
    expect(opened.view).toMatchObject({ turn: 7, tab: "messages", profile: "senpi", provider: "openai-responses", notes: true, leafId: null });
    expect(opened.session.scope).toBe("branch");
    const original = readFixtureSession(SENPI);
    const shared = readSessionText(`${opened.session.lines.join("\n")}\n`, opened.session.fileName, opened.session.formatId);
    expect(shared.entries.length).toBeLessThan(original.entries.length);
    const options = { profile: "senpi" as const, notes: true, api: "openai-responses" as const };
    for (const turn of [1, 4, 7]) {
      expect(buildTurnRequest(shared, options, turn).body).toEqual(buildTurnRequest(original, options, turn).body);
    }
  });

  it("--scope full shares every entry", async () => {
    const { opened } = await shareThenOpen([PI_OPENAI, "--turn", "2", "--scope", "full"]);
    const original = readFixtureSession(PI_OPENAI);
    expect(opened.session.scope).toBe("full");
    expect(opened.session.entries).toBe(original.entries.length);
    expect(opened.session.lines).toHaveLength(original.entries.length + 1);
  });

  it("a seeded session's link holds none of its secrets (redaction on by default), and all with --redact off", async () => {
    const file = seededSessionFile();
    const { fragment, opened, stderr } = await shareThenOpen([file, "--turn", "1"]);
    // Lines are JSON texts: a secret appears in them JSON-escaped once.
    const text = opened.session.lines.join("\n");
    for (const { secret, kind } of SECRET_EXAMPLES) {
      expect(text.includes(JSON.stringify(secret).slice(1, -1)), kind).toBe(false);
    }
    expect(stderr.split("\n").filter((line) => line.startsWith("redacted: ")).length).toBeGreaterThanOrEqual(SECRET_EXAMPLES.length);
    expect(fragment.length).toBeGreaterThan(10);
    const off = await shareThenOpen([file, "--turn", "1", "--redact", "off"]);
    const clear = off.opened.session.lines.join("\n");
    for (const { secret } of SECRET_EXAMPLES) expect(clear.includes(JSON.stringify(secret).slice(1, -1))).toBe(true);
  });

  it("open reads a bundle file and a file holding a link", async () => {
    const session = readFixtureSession(PI_OPENAI);
    const bundle = shareBundle(session, { profile: "pi" }, { turn: 3, tab: "request", scope: "branch", redact: true, unmasked: [], pageUrlChars: 0 });
    expect(bundle.fileName).toMatch(/-turn-3\.contextscope\.json$/);
    const run = await runCliText(["open", tempFile(bundle.fileName, bundle.text)]);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as Opened).view.turn).toBe(3);

    const share = await runCliText(["share", PI_OPENAI, "--turn", "3"]);
    const linkFile = tempFile("link.txt", `see http://localhost:5173/${share.stdout.trim()}\n`);
    const fromFile = await runCliText(["open", linkFile]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
  });
});

describe("open: clear errors", () => {
  async function openError(input: string): Promise<string> {
    const run = await runCliText(["open", input]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    return run.stderr;
  }

  it("truncated, tampered, unknown-version, not-a-link", async () => {
    const share = await runCliText(["share", PI_OPENAI, "--turn", "5"]);
    const fragment = share.stdout.trim();
    expect(await openError(fragment.slice(0, Math.floor(fragment.length / 2)))).toMatch(/damaged.*\[corrupted\]/);
    const middle = Math.floor(fragment.length / 2);
    const tampered = `${fragment.slice(0, middle)}${fragment[middle] === "A" ? "B" : "A"}${fragment.slice(middle + 1)}`;
    expect(await openError(tampered)).toMatch(/^error: This share link/);
    expect(await openError(fragment.replace("#v2=", "#v9="))).toMatch(/newer version.*\[unknown-version\]/);
    expect(await openError("hello world")).toMatch(/not a Contextscope share link.*\[not-a-link\]/);
  });

  it("oversized: a payload inflating past the cap is refused", async () => {
    const huge = new TextEncoder().encode(JSON.stringify({ v: 1, session: { lines: ["A".repeat(33 * 1024 * 1024)] } }));
    const fragment = `#v1=${encodeBase64Url(deflateSync(huge, { level: 9 }))}`;
    expect(await openError(fragment)).toMatch(/more data than Contextscope accepts.*\[too-large\]/);
  });

  it("hostile: a __proto__ key or a wrong shape is refused", async () => {
    const session = { fileName: "x.jsonl", formatId: "pi", scope: "full", lines: [] as string[] };
    const encode = (json: string) => `#v1=${encodeBase64Url(deflateSync(new TextEncoder().encode(json)))}`;
    const view = '{"turn":1,"tab":"request","profile":"pi","provider":null,"notes":false,"leafId":null}';
    const proto = encode(`{"v":1,"session":${JSON.stringify(session)},"view":${view.replace("{", '{"__proto__":{"polluted":true},')}}`);
    expect(await openError(proto)).toMatch(/\[invalid-payload\]/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await openError(encode(`{"v":1,"session":${JSON.stringify(session)},"view":${view.replace('"turn":1', '"turn":"3"')}}`))).toMatch(
      /view\.turn: expected a turn number.*\[invalid-payload\]/,
    );
  });
});
