// What the benchmark session generators (generate-session.ts, generate-short-turns.ts) share: words
// drawn from a seeded stream, pi's entry chain (hex ids, each entry naming the one before as its
// parent), a file in a new temporary folder, and telling whether a generator was run as a script.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** `n` in hexadecimal, zero-padded to `width` digits. */
export function hexId(n: number, width = 12): string {
  return n.toString(16).padStart(width, "0");
}

/** A word of `words` chosen by one draw of `rand`. */
export function wordPicker(rand: () => number, words: readonly string[]): () => string {
  return () => words[Math.floor(rand() * words.length)]!;
}

/** A pi session's first line (format version 3), working in the bench folder. */
export function piSessionHeader(id: string, timestamp: string): Record<string, unknown> {
  return { type: "session", version: 3, id, timestamp, cwd: "/home/dev/bench" };
}

/** pi's entries one after another: each gets the next 8-digit hex id and names the previous one as its parent. */
export function piEntryChain(): (fields: Record<string, unknown>, timestamp: string) => { id: string; record: Record<string, unknown> } {
  let count = 0;
  let parentId: string | null = null;
  return (fields, timestamp) => {
    const id = hexId(++count, 8);
    const record = { ...fields, id, parentId, timestamp };
    parentId = id;
    return { id, record };
  };
}

/** A path named `name` in a new temporary folder whose name starts with `prefix`. */
export function newTempFile(prefix: string, name: string): string {
  return path.join(mkdtempSync(path.join(tmpdir(), prefix)), name);
}

/** Whether the module at `moduleUrl` is the script node was started with (not imported by a benchmark). */
export function ranAsScript(moduleUrl: string): boolean {
  const script = process.argv[1];
  return Boolean(script) && path.resolve(script!) === path.resolve(new URL(moduleUrl).pathname);
}
