// `capture`: the recording proxy against a scripted local upstream for each wire API (Anthropic
// Messages streaming, OpenAI Chat Completions, Responses streaming, Gemini streaming with its key
// in the query). What the upstream received is compared with what the client sent, byte for byte;
// streamed chunks must reach the client while the upstream is still holding the rest back; no
// credential may be in any written file. And the command itself, with a child that calls through it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startCaptureProxy, type CaptureProxy } from "../../src/cli/capture/proxy";
import { redactPath, upstreamUrl } from "../../src/cli/capture/upstream";
import { runCliCaptured } from "./cli-helpers";

const SECRETS = ["sk-ant-SECRET-one", "sk-SECRET-two", "AIzaSECRET-three", "AIzaSECRET-four"];

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The scripted upstream: streams its SSE answers in two halves, the second only when `release()` is called (or at once: `held` false). */
function scriptedUpstream(held = true) {
  const received: Received[] = [];
  let release: () => void = () => {};
  let ended = false;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) });
      if (request.url === "/v1/chat/completions") {
        response.writeHead(200, { "content-type": "application/json" }).end('{"choices":[{"message":{"role":"assistant","content":"안녕"}}]}');
        return;
      }
      ended = false;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write('event: message_start\ndata: {"type":"message_start"}\n\n');
      new Promise<void>((resolve) => (release = resolve)).then(() => {
        ended = true;
        response.end('event: message_stop\ndata: {"type":"message_stop"}\n\n');
      });
      if (!held) setTimeout(() => release(), 10);
    });
  });
  return { server, received, release: () => release(), ended: () => ended };
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Sends one request; `onFirstChunk` runs when the first response bytes arrive. */
function send(url: string, headers: Record<string, string>, body: Buffer, onFirstChunk: () => void = () => {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { ...headers, "content-type": "application/json", "content-length": String(body.length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => {
        if (chunks.length === 0) onFirstChunk();
        chunks.push(chunk);
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** Every file of a folder tree, as text. */
function allFiles(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file, text: readFileSync(file, "latin1") };
    });
}

const CASES: { api: string; path: string; headers: Record<string, string>; body: string; streams: boolean }[] = [
  {
    api: "Anthropic Messages (streaming)",
    path: "/v1/messages",
    headers: { "x-api-key": SECRETS[0]!, "anthropic-version": "2023-06-01" },
    body: '{"model":"claude-x","stream":true,  "messages":[{"role":"user","content":"README를 요약해줘 \\u00e9"}],"max_tokens":32000}',
    streams: true,
  },
  {
    api: "OpenAI Chat Completions",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${SECRETS[1]!}` },
    body: '{"messages":[{"role":"system","content":"You are pi."},{"role":"user","content":"hi"}],"model":"gpt-x"}\n',
    streams: false,
  },
  {
    api: "OpenAI Responses (streaming)",
    path: "/v1/responses",
    headers: { authorization: `Bearer ${SECRETS[1]!}` },
    body: '{"model":"gpt-5","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],"stream":true,"store":false}',
    streams: true,
  },
  {
    api: "Gemini (streaming, key in the query)",
    path: `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${SECRETS[3]!}`,
    headers: { "x-goog-api-key": SECRETS[2]! },
    body: '{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"systemInstruction":{"parts":[{"text":"You are Gemini CLI."}]}}',
    streams: true,
  },
];

describe("capture proxy", () => {
  const upstream = scriptedUpstream();
  let upstreamBase = "";
  let out = "";
  let proxy: CaptureProxy;

  beforeAll(async () => {
    upstreamBase = await listen(upstream.server);
    out = mkdtempSync(path.join(tmpdir(), "capture-test-"));
    proxy = await startCaptureProxy({ port: 0, out, upstream: upstreamBase });
  });
  afterAll(async () => {
    upstream.server.close();
    rmSync(out, { recursive: true, force: true });
  });

  CASES.forEach((item, i) => {
    it(`${item.api}: forwarded byte for byte, recorded byte for byte, answered as the upstream answered`, async () => {
      const body = Buffer.from(item.body, "utf8");
      let endedAtFirstChunk: boolean | null = null;
      const answer = send(`${proxy.url}${item.path}`, item.headers, body, () => {
        endedAtFirstChunk = upstream.ended();
        upstream.release();
      });
      const result = await answer;
      expect(result.status).toBe(200);
      const got = upstream.received.at(-1)!;
      expect(got.url).toBe(item.path);
      expect(got.body.equals(body)).toBe(true);
      // Credentials are forwarded unchanged: the upstream needs them.
      for (const [name, value] of Object.entries(item.headers)) expect(got.headers[name]).toBe(value);
      if (item.streams) {
        // The first event reached the client while the upstream was still holding the rest back.
        expect(endedAtFirstChunk).toBe(false);
        expect(result.body.toString()).toContain("message_stop");
      }
      // The exchange is written just after the answer's end.
      const id = String(i + 1).padStart(3, "0");
      for (let wait = 0; wait < 100 && !existsSync(path.join(out, "requests", `${id}.meta.json`)); wait++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(readFileSync(path.join(out, "requests", `${id}.json`)).equals(body)).toBe(true);
      expect(readFileSync(path.join(out, "responses", `${id}.txt`)).equals(result.body)).toBe(true);
      const meta = JSON.parse(readFileSync(path.join(out, "requests", `${id}.meta.json`), "utf8")) as Record<string, unknown>;
      expect(meta).toMatchObject({ seq: i + 1, method: "POST", status: 200, kind: "main", upstream: upstreamBase });
      expect(meta.path).toBe(item.path.replace(SECRETS[3]!, "<redacted>"));
      expect((meta.timing as { totalMs: number }).totalMs).toBeGreaterThan(0);
    });
  });

  it("no credential is in any written file", async () => {
    await proxy.close();
    const files = allFiles(out);
    expect(files.length).toBe(CASES.length * 3);
    for (const { file, text } of files) for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${file}`).toBe(false);
  });
});

describe("upstream and redaction", () => {
  it("chooses the provider's own address by path, and a given upstream keeps its path prefix", () => {
    expect(upstreamUrl("/v1/messages?beta=true", null)?.href).toBe("https://api.anthropic.com/v1/messages?beta=true");
    expect(upstreamUrl("/v1/chat/completions", null)?.origin).toBe("https://api.openai.com");
    expect(upstreamUrl("/v1/responses", null)?.origin).toBe("https://api.openai.com");
    expect(upstreamUrl("/v1beta/models/gemini-2.5-flash:generateContent", null)?.origin).toBe("https://generativelanguage.googleapis.com");
    expect(upstreamUrl("/health", null)).toBeNull();
    expect(upstreamUrl("/v1/messages", "https://gateway.example/anthropic/")?.href).toBe("https://gateway.example/anthropic/v1/messages");
  });

  it("redacts key-like query parameters only", () => {
    expect(redactPath("/v1beta/models/m:streamGenerateContent?alt=sse&key=AIza123")).toBe("/v1beta/models/m:streamGenerateContent?alt=sse&key=<redacted>");
    expect(redactPath("/v1/messages?beta=true")).toBe("/v1/messages?beta=true");
  });
});

describe("capture command", () => {
  const upstream = scriptedUpstream(false);
  let upstreamBase = "";
  const out = mkdtempSync(path.join(tmpdir(), "capture-cmd-"));
  beforeAll(async () => {
    upstreamBase = await listen(upstream.server);
  });
  afterEach(() => {
    upstream.server.close();
    rmSync(out, { recursive: true, force: true });
  });

  it("starts the agent behind the proxy, records its request and passes its exit status on", async () => {
    // The "agent": posts to the Anthropic base URL it was given, with a key, then exits 7.
    const agent = [
      "const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });",
      "fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'x-api-key': 'sk-ant-SECRET-one', 'content-type': 'application/json' }, body })",
      "  .then((r) => r.text()).then((t) => { if (!process.env.OPENAI_BASE_URL.endsWith('/v1')) process.exit(3); process.exit(t.includes('message_stop') ? 7 : 2); });",
    ].join("\n");
    const run = await runCliCaptured(["capture", "--out", out, "--upstream", upstreamBase, "--", process.execPath, "-e", agent]);
    expect(run.stderr).toContain("1 request(s) recorded");
    expect(run.code).toBe(7);
    expect(JSON.parse(readFileSync(path.join(out, "requests", "001.json"), "utf8"))).toEqual({ model: "m", messages: [{ role: "user", content: "hi" }] });
    for (const { text } of allFiles(out)) expect(text).not.toContain("SECRET");
  });

  it("refuses an upstream that is not an http(s) URL", async () => {
    const run = await runCliCaptured(["capture", "--upstream", "ftp://x", "--", "true"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--upstream must be");
  });
});
