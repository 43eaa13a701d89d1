// A capture's files appear whole: each is written under a `.partial` name and renamed, so a reader
// looking at the folder while the agent runs (verify, captures, the page) never meets half a file.
// What the recorder asks of the file system is recorded; the files it leaves are read back.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";

const calls = vi.hoisted(() => [] as { op: "write" | "rename"; file: string; to?: string }[]);
vi.mock("node:fs/promises", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...original,
    writeFile: (file: string, ...rest: Parameters<typeof original.writeFile> extends [unknown, ...infer R] ? R : never) => {
      calls.push({ op: "write", file });
      return original.writeFile(file, ...rest);
    },
    rename: (from: string, to: string) => {
      calls.push({ op: "rename", file: from, to });
      return original.rename(from, to);
    },
  };
});

const { Recording } = await import("../../src/cli/capture/recording");

const dir = mkdtempSync(path.join(tmpdir(), "capture-whole-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a recorded exchange", () => {
  it("is written under partial names, each file then renamed to its own name", async () => {
    const recording = new Recording(dir);
    const body = Buffer.from(JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }));
    await recording.write({
      seq: recording.next(),
      time: "2026-12-07T00:00:00.000Z",
      method: "POST",
      path: "/v1/messages",
      upstream: "http://127.0.0.1:1",
      headers: {},
      body,
      status: 200,
      responseHeaders: {},
      response: Buffer.from("data: {}\n\n"),
      firstByteMs: 1,
      totalMs: 2,
      error: null,
    });
    const writes = calls.filter((call) => call.op === "write").map((call) => path.relative(dir, call.file));
    expect(writes.sort()).toEqual(["requests/001.json.partial", "requests/001.meta.json.partial", "responses/001.txt.partial"]);
    const renames = calls.filter((call) => call.op === "rename").map((call) => [path.relative(dir, call.file), path.relative(dir, call.to!)]);
    expect(renames).toHaveLength(3);
    for (const [from, to] of renames) expect(from).toBe(`${to}.partial`);
    // The meta file, which says the others are complete, is renamed last.
    expect(renames.at(-1)![1]).toBe("requests/001.meta.json");
    expect(readdirSync(path.join(dir, "requests")).sort()).toEqual(["001.json", "001.meta.json"]);
    expect(readFileSync(path.join(dir, "requests", "001.json")).equals(body)).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, "requests", "001.meta.json"), "utf8"))).toMatchObject({ seq: 1, status: 200, bodyFile: "001.json" });
  });
});
