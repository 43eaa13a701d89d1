// The curl export: endpoints and headers per API shape, placeholder keys, and a body that
// survives the shell byte for byte — checked by running the command in bash with a `curl`
// function that prints the arguments it receives.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportCurl, formatRequestJson, shellQuote } from "../../../src/core/export";
import { notRecorded, type ApiId } from "../../../src/core/model";

/** Runs the command with curl replaced by a function printing its arguments, NUL-separated. */
function runInBash(command: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { printf '%s\\0' "$@"; }\n${command}\n`;
  const result = spawnSync("bash", ["-c", script], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  const args = result.stdout.split("\0");
  args.pop();
  return args;
}

function dataOf(args: string[]): string | undefined {
  const index = args.indexOf("--data-raw");
  return index >= 0 ? args[index + 1] : undefined;
}

const hostileBody = {
  model: "gpt-x",
  messages: [
    { role: "user", content: "it's \"quoted\" $HOME `whoami` $(rm -rf /) \\ back\\slash\nnew line\n'\\''\n!! !$ ~ * ? [a] {b,c} ; | & > < #" },
    { role: "user", content: "EOF\nJSON\n'" },
  ],
  stream: true,
};

describe("exportCurl", () => {
  const expected: [ApiId, string, string, string[]][] = [
    ["openai-completions", "https://api.openai.com/v1/chat/completions", "OPENAI_API_KEY", ["Authorization: Bearer k-test"]],
    ["openai-responses", "https://api.openai.com/v1/responses", "OPENAI_API_KEY", ["Authorization: Bearer k-test"]],
    ["anthropic-messages", "https://api.anthropic.com/v1/messages", "ANTHROPIC_API_KEY", ["x-api-key: k-test", "anthropic-version: 2023-06-01"]],
    [
      "google-generative-ai",
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
      "GEMINI_API_KEY",
      ["x-goog-api-key: k-test"],
    ],
  ];

  for (const [api, url, keyVariable, headers] of expected) {
    it(`${api}: endpoint, placeholder key, headers, body survive bash`, () => {
      const exported = exportCurl(api, hostileBody, { model: "gemini-2.5-pro" });
      expect(exported.url).toBe(url);
      expect(exported.command).toContain(`$${keyVariable}`);
      expect(exported.command).not.toContain("k-test");
      const args = runInBash(exported.command, { [keyVariable]: "k-test" });
      expect(args[0]).toBe(url);
      expect(dataOf(args)).toBe(formatRequestJson(hostileBody));
      for (const header of ["Content-Type: application/json", ...headers]) {
        expect(args[args.indexOf(header) - 1]).toBe("-H");
      }
      expect(args).toContain("--no-buffer");
    });
  }

  it("any body text survives the shell (property, one bash run per batch)", () => {
    const bodies = fc.sample(fc.jsonValue(), 60).concat(fc.sample(fc.string({ unit: "binary" }), 40));
    const commands = bodies.map((body) => exportCurl("anthropic-messages", body).command);
    const script = `curl() { local prev=""; for a in "$@"; do if [ "$prev" = --data-raw ]; then printf '%s\\0' "$a"; fi; prev="$a"; done; }\n${commands.join("\n")}\n`;
    const result = spawnSync("bash", ["-c", script], { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    expect(result.status, result.stderr).toBe(0);
    const printed = result.stdout.split("\0");
    printed.pop();
    expect(printed).toEqual(bodies.map((body) => formatRequestJson(body)));
  });

  it("overrides the base URL, key variable and adds headers", () => {
    const exported = exportCurl("openai-completions", { model: "m" }, {
      baseUrl: "http://localhost:8080/v1/",
      keyVariable: "MY_KEY",
      headers: { "OpenAI-Organization": "org-'x'" },
    });
    expect(exported.url).toBe("http://localhost:8080/v1/chat/completions");
    const args = runInBash(exported.command, { MY_KEY: "abc" });
    expect(args).toContain("Authorization: Bearer abc");
    expect(args).toContain("OpenAI-Organization: org-'x'");
    expect(args).not.toContain("--no-buffer");
    expect(() => exportCurl("openai-completions", {}, { keyVariable: "X; rm -rf /" })).toThrow(/not an environment variable name/);
    expect(() => exportCurl("openai-completions", {}, { headers: { "a b": "c" } })).toThrow(/invalid header/);
  });

  it("quotes a hostile base URL", () => {
    const exported = exportCurl("anthropic-messages", {}, { baseUrl: "https://x.test/'$(touch /tmp/pwned)'" });
    const args = runInBash(exported.command);
    expect(args[0]).toBe("https://x.test/'$(touch /tmp/pwned)'/v1/messages");
  });

  it("warns about $notRecorded markers and a missing Google model", () => {
    const body = { system: notRecorded("system"), tools: notRecorded("tools"), messages: [] };
    const exported = exportCurl("anthropic-messages", body);
    expect(exported.notRecorded).toEqual(["system", "tools"]);
    expect(exported.warnings.join(" ")).toMatch(/does not record system, tools/);
    expect(exportCurl("anthropic-messages", { messages: [] }).warnings).toEqual([]);
    const google = exportCurl("google-generative-ai", { contents: [] });
    expect(google.url).toContain("/models/MODEL_ID:streamGenerateContent");
    expect(google.warnings.join(" ")).toMatch(/MODEL_ID/);
  });

  it("shellQuote escapes single quotes the POSIX way", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("")).toBe("''");
  });

  it("lays the command out one option per line", () => {
    const command = exportCurl("openai-responses", { a: 1 }).command;
    expect(command.split(" \\\n")[0]).toBe("curl 'https://api.openai.com/v1/responses'");
    expect(command).toContain(" \\\n  -H 'Content-Type: application/json' \\\n  -H \"Authorization: Bearer $OPENAI_API_KEY\" \\\n  --data-raw '{");
  });
});
