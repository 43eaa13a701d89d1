// `contextscope mcp`: the server driven by the SDK's own client over an in-memory transport.
// Every tool's answer is checked against what the CLI command it wraps prints (run through
// runCli, not re-implemented here), get_request's redaction against `export`, and every path
// outside the named folders — a plain one, `..`, a symbolic link to a file or a folder — refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../src/cli/mcp/server";
import { redactRequestBody } from "../../src/app/shareExport";
import { runCliCaptured } from "./cli-helpers";
import { runCliText } from "./share-helpers";
import { fixtureCase } from "../support/fixtures";
import { SECRET_EXAMPLES, seededSessionText } from "../support/secret-examples";

const CLAUDE = fixtureCase("claude/print-autocompact-manualcompact");
const CLAUDE_FILE = CLAUDE.sessionPath;
const PI_FILE = fixtureCase("pi/print-openai-autocompact").sessionPath;

interface Connected {
  client: Client;
  close(): Promise<void>;
}

async function connect(folders: string[]): Promise<Connected> {
  const server = createMcpServer(folders);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "contextscope-test", version: "1" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { client, close: async () => void (await Promise.all([client.close(), server.close()])) };
}

/** A tool's answer: its JSON text parsed, or its error text. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: any; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  return { isError: result.isError === true, text, value: result.isError === true ? null : JSON.parse(text) };
}

let temp: string;
let secretsFolder: string;
let secretsFile: string;
let outside: string;
let server: Connected;

beforeAll(async () => {
  temp = mkdtempSync(path.join(tmpdir(), "contextscope-mcp-"));
  secretsFolder = path.join(temp, "sessions");
  outside = path.join(temp, "outside");
  mkdirSync(secretsFolder);
  mkdirSync(outside);
  secretsFile = path.join(secretsFolder, "seeded-secrets.jsonl");
  writeFileSync(secretsFile, seededSessionText());
  writeFileSync(path.join(outside, "other.jsonl"), seededSessionText());
  // Links inside the folder that lead out of it: to a file, and to a folder.
  symlinkSync(path.join(outside, "other.jsonl"), path.join(secretsFolder, "link-to-outside.jsonl"));
  symlinkSync(outside, path.join(secretsFolder, "linked-folder"));
  server = await connect([path.join(CLAUDE.dir, "session"), path.dirname(PI_FILE), secretsFolder]);
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(temp, { recursive: true, force: true });
});

describe("mcp: tools", () => {
  it("lists every tool, each read-only", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["compare_sessions", "explain_break", "get_request", "list_sessions", "search_sessions", "session_cost", "simulate_compaction"].sort(),
    );
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
  });

  it("list_sessions: the sessions `scan` finds, with their turns as `requests` counts them", async () => {
    const { value } = await call(server.client, "list_sessions", {});
    const files = (value.sessions as { file: string }[]).map((row) => row.file).sort();
    expect(files).toEqual([CLAUDE_FILE, PI_FILE, secretsFile].sort());
    const claude = value.sessions.find((row: { file: string }) => row.file === CLAUDE_FILE);
    const printed = await runCliCaptured(["requests", CLAUDE_FILE]);
    expect(claude.turns).toBe(printed.lines.filter((line) => "turn" in line).length);
    expect(claude.agent).toBe("Claude Code");
    // The recording's README: automatic compaction before turn 5, a manual one at prompt 8.
    expect(claude.compactions).toBe(2);
    expect(claude.first < claude.last).toBe(true);
  });

  it("get_request redact:false is exactly the line `requests --turn N` prints", async () => {
    for (const turn of [1, 6, 12]) {
      const printed = await runCliCaptured(["requests", CLAUDE_FILE, "--turn", String(turn)]);
      expect(printed.code).toBe(0);
      const { value } = await call(server.client, "get_request", { file: CLAUDE_FILE, turn, redact: false });
      const { redacted, ...line } = value;
      expect(redacted).toBe(false);
      expect(line).toEqual(printed.lines[0]);
    }
  });

  it("get_request redacts by default exactly as `export` does, and redact:false keeps the secrets", async () => {
    const exported = await runCliText(["export", secretsFile, "--turn", "1"]);
    expect(exported.code).toBe(0);
    const masked = await call(server.client, "get_request", { file: secretsFile, turn: 1 });
    expect(masked.value.redacted).toBe(true);
    expect(masked.value.request).toEqual(JSON.parse(exported.stdout));
    expect(masked.value.redactions.length).toBeGreaterThanOrEqual(SECRET_EXAMPLES.length);
    for (const { secret } of SECRET_EXAMPLES) expect(masked.text.includes(JSON.stringify(secret).slice(1, -1))).toBe(false);
    const plain = await call(server.client, "get_request", { file: secretsFile, turn: 1, redact: false });
    expect(plain.text.includes(JSON.stringify(SECRET_EXAMPLES[0]!.secret).slice(1, -1))).toBe(true);
  });

  it("simulate_compaction, compare_sessions and search_sessions mask secrets too unless redact is false", async () => {
    const secrets = SECRET_EXAMPLES.map(({ secret }) => JSON.stringify(secret).slice(1, -1));
    const answers = async (redact: boolean | undefined) => [
      await call(server.client, "simulate_compaction", { file: secretsFile, policy: "pi", manual: true, redact }),
      await call(server.client, "compare_sessions", { fileA: secretsFile, fileB: secretsFile, redact }),
      await call(server.client, "search_sessions", { query: SECRET_EXAMPLES[0]!.secret.slice(0, 12), redact }),
    ];
    const masked = await answers(undefined);
    const plain = await answers(false);
    for (const answer of masked) {
      expect(answer.isError, answer.text).toBe(false);
      expect(answer.text).toContain("[redacted");
    }
    for (const answer of plain) expect(answer.text).not.toContain("[redacted");
    // Export's masking, applied to the whole answer.
    masked.forEach((answer, i) => expect(answer.value).toEqual(redactRequestBody(plain[i]!.value, []).value));
    // Comparison and search: no secret left. (The pi summariser's conversation text runs some
    // secrets together with no separator between messages; the detectors, which want a word
    // boundary, miss those there as they do in `export` of a simulated request.)
    for (const answer of masked.slice(1)) for (const secret of secrets) expect(answer.text.includes(secret)).toBe(false);
  });

  it("search_sessions finds a user prompt at its turn, and nothing for text no prompt holds", async () => {
    const { value } = await call(server.client, "search_sessions", { query: "architecture document" });
    const claude = value.sessions.find((row: { file: string }) => row.file === CLAUDE_FILE);
    // Prompt 3 of the recording, first sent in the request of the turn `requests` shows it in.
    const printed = await runCliCaptured(["requests", CLAUDE_FILE]);
    const firstTurn = printed.lines.find((line) => "turn" in line && JSON.stringify(line.request).includes("Show me the architecture document"))!.turn;
    expect(firstTurn).toBeGreaterThan(1);
    expect(claude.hits[0].turn).toBe(firstTurn);
    expect(claude.hits[0].match.toLowerCase()).toBe("architecture document");
    const none = await call(server.client, "search_sessions", { query: "zq-no-such-prompt-text" });
    expect(none.value.sessions).toEqual([]);
  });

  it("explain_break gives the break `prefix` computes at a turn, and lists every breaking turn", async () => {
    const printed = await runCliCaptured(["prefix", CLAUDE_FILE, "--tokenizer", "estimate"]);
    const breaking = printed.lines.filter((line) => line.cause !== null);
    expect(breaking.length).toBeGreaterThan(0);
    const all = await call(server.client, "explain_break", { file: CLAUDE_FILE, tokenizer: "estimate" });
    expect(all.value.breaks.map((line: { turn: number }) => line.turn)).toEqual(breaking.map((line) => line.turn));
    const first = breaking[0]!;
    const { value } = await call(server.client, "explain_break", { file: CLAUDE_FILE, turn: first.turn, tokenizer: "estimate" });
    expect(value).toMatchObject({
      breaks: true,
      cause: first.cause,
      breakPath: first.breakPath,
      offsetBytes: first.sharedBytes,
      offsetTokens: first.sharedTokens,
      serverVerdict: first.serverVerdict,
      tokensBilledAgain: (first.cost as { break: { rebilledTokens: number } | null }).break?.rebilledTokens ?? 0,
    });
    const steady = await call(server.client, "explain_break", { file: CLAUDE_FILE, turn: 2, tokenizer: "estimate" });
    expect(steady.value).toMatchObject({ breaks: false, cause: null, tokensBilledAgain: 0 });
  });

  it("simulate_compaction is `compact --policy --turn` with its settings", async () => {
    const printed = await runCliCaptured(["compact", CLAUDE_FILE, "--policy", "claude-code", "--turn", "4", "--manual", "--context-window", "200000"]);
    expect(printed.code).toBe(0);
    const { value } = await call(server.client, "simulate_compaction", { file: CLAUDE_FILE, policy: "claude-code", turn: 4, manual: true, contextWindow: 200000, redact: false });
    expect(value).toEqual(printed.lines[0]);
    expect(value.turn).toBe(4);
    expect(value.limits.contextWindow).toBe(200000);
  });

  it("session_cost is the whole-session cost `scan` prints", async () => {
    const scanned = await runCliCaptured(["scan", CLAUDE_FILE, "--jobs", "1", "--tokenizer", "estimate"]);
    const { value } = await call(server.client, "session_cost", { file: CLAUDE_FILE });
    const { threads, file, ...totals } = value;
    expect(file).toBe(CLAUDE_FILE);
    expect(totals).toEqual(scanned.lines[0]!.wholeSession);
    expect(totals.cost.dollars).toBeGreaterThan(0);
    expect(threads.length).toBeGreaterThanOrEqual(1);
  });

  it("compare_sessions is what `compare` prints", async () => {
    const printed = await runCliCaptured(["compare", CLAUDE_FILE, PI_FILE]);
    const { value } = await call(server.client, "compare_sessions", { fileA: CLAUDE_FILE, fileB: PI_FILE, redact: false });
    expect(value.pairs).toEqual(printed.lines.filter((line) => line.kind === "pair"));
    expect(value.totals).toEqual(printed.lines.find((line) => line.kind === "totals"));
    expect(value.firstDifference.pair).toBe(0);
  });
});

describe("mcp: only the named folders", () => {
  const refusals = (): [string, Record<string, unknown>][] => {
    const out = path.join(outside, "other.jsonl");
    return [
      ["get_request", { file: out, turn: 1 }],
      ["get_request", { file: path.join(secretsFolder, "..", "outside", "other.jsonl"), turn: 1 }],
      ["get_request", { file: path.join(secretsFolder, "link-to-outside.jsonl"), turn: 1 }],
      ["get_request", { file: path.join(secretsFolder, "linked-folder", "other.jsonl"), turn: 1 }],
      ["explain_break", { file: out }],
      ["simulate_compaction", { file: out, policy: "pi" }],
      ["session_cost", { file: path.join(secretsFolder, "link-to-outside.jsonl") }],
      ["compare_sessions", { fileA: CLAUDE_FILE, fileB: out }],
      ["compare_sessions", { fileA: path.join(secretsFolder, "linked-folder", "other.jsonl"), fileB: CLAUDE_FILE }],
    ];
  };

  it("every tool that takes a path refuses one outside, a link out included, with a clear error", async () => {
    for (const [name, args] of refusals()) {
      const result = await call(server.client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.text).toContain("refused, it is outside the sessions folders");
    }
  });

  it("listing never reaches through a link out of the folders", async () => {
    const { value } = await call(server.client, "list_sessions", {});
    for (const row of value.sessions as { file: string }[]) expect(row.file.startsWith(outside)).toBe(false);
  });

  it("a turn resource reads inside the folders and refuses outside", async () => {
    const { resources } = await server.client.listResources();
    const uri = resources.find((resource) => resource.uri.includes(encodeURIComponent(CLAUDE_FILE)) && resource.uri.endsWith("/turn/2"))!.uri;
    const read = await server.client.readResource({ uri });
    const printed = await runCliCaptured(["requests", CLAUDE_FILE, "--turn", "2"]);
    expect(JSON.parse((read.contents[0] as { text: string }).text).request).toEqual(printed.lines[0]!.request);
    await expect(server.client.readResource({ uri: `contextscope://session/${encodeURIComponent(path.join(outside, "other.jsonl"))}/turn/1` })).rejects.toThrow(/refused/);
  });

  it("a folder that does not exist is refused when the server starts", () => {
    expect(() => createMcpServer([path.join(temp, "missing")])).toThrow(/not a folder/);
  });
});
