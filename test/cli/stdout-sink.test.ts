// Standard output through a pipe whose reader is slow: Node's stream queued every write the reader
// had not taken and failed them together (ENOBUFS), so `requests big.jsonl | jq` stopped after
// 64 KB. The sink writes through the descriptor and waits on a full pipe: everything arrives,
// and a reader that stops early still ends the process normally.
import { spawn } from "node:child_process";
import path from "node:path";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";

const REPO_ROOT = path.resolve(__dirname, "../..");
const CHUNK = 64 * 1024;
const CHUNKS = 2000;

// Batches of writes with turns of the event loop between them, as the CLI's buffered output makes.
const WRITER = `
import { stdoutSink } from "./src/cli/stdoutSink.ts";
const write = stdoutSink(() => process.exit(0));
const chunk = "x".repeat(${CHUNK});
let written = 0;
const batch = () => {
  for (let n = 0; n < 100 && written < ${CHUNKS}; n++, written++) write(chunk);
  if (written < ${CHUNKS}) setImmediate(batch);
};
batch();
`;

function runWriter(readFor: (stdout: Readable) => Promise<number>): Promise<{ bytes: number; code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", WRITER], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  const ended = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return readFor(child.stdout).then(async (bytes) => ({ bytes, code: await ended, stderr }));
}

describe("standard output through a slow pipe", () => {
  it("delivers every byte to a reader that starts late, and exits 0", async () => {
    const result = await runWriter(async (stdout) => {
      stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      let bytes = 0;
      stdout.on("data", (data: Buffer) => (bytes += data.length));
      stdout.resume();
      await new Promise((resolve) => stdout.on("end", resolve));
      return bytes;
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.bytes).toBe(CHUNK * CHUNKS);
  }, 120_000);

  it("ends normally when the reader stops early", async () => {
    const result = await runWriter(async (stdout) => {
      const first = await new Promise<number>((resolve) => stdout.once("data", (data: Buffer) => resolve(data.length)));
      stdout.destroy();
      return first;
    });
    expect(result.bytes).toBeGreaterThan(0);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  }, 120_000);
});
