// The worker tells which dropped `.json` files are sessions: an opencode export (pretty-printed,
// or compact on one line longer than what is looked at) is; a captured request and a recorder's
// `.meta.json` beside it are not.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sniffSessions } from "../../src/worker/sniffSessions";

const CASE = path.resolve(__dirname, "../fixtures/opencode/run-autocompact");
const read = (relative: string) => readFileSync(path.join(CASE, relative), "utf8");

describe("sniffSessions", () => {
  it("recognises an opencode export among captured requests, in the order given", async () => {
    const exported = read("session/export.json");
    const compact = JSON.stringify(JSON.parse(exported));
    expect(compact.length).toBeGreaterThan(16 * 1024);
    const files = [
      new File([read("requests/007.json")], "007.json"),
      new File([exported], "export.json"),
      new File([read("requests/012.meta.json")], "012.meta.json"),
      new File([compact], "compact-export.json"),
    ];
    expect(await sniffSessions(files)).toEqual([false, true, false, true]);
  });
});
