// The intake (src/core/intake/) is the one place that decides what a set of files is: no file
// outside src/core/ tests a file's header (SQLite, its write-ahead log, a compressed container) or
// names a kind of side file an agent keeps (the kinds the descriptor exports). Comments are not
// code: they may say what a host does.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SIDE_FILE_KINDS } from "../../src/core/agents/descriptor";

const SRC = path.resolve(__dirname, "../../src");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

/** The code of a file without its comments (strings kept: a kind named in a string is named). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Header tests: the storage and container checks of a file's first bytes. */
const HEADER_TESTS = /\bis(Zstd|Gzip|Sqlite|Wal)Header\b/;
/** A side-file kind written as a string, in any quotes. */
const KIND_LITERAL = new RegExp(`["'\`](${SIDE_FILE_KINDS.join("|")})["'\`]`);

const hostFiles = () => filesUnder(SRC).filter((file) => !file.startsWith(path.join(SRC, "core") + path.sep));

describe("the intake seam", () => {
  it("the rule finds what it looks for", () => {
    expect(HEADER_TESTS.test(code("if (isZstdHeader(head)) load();"))).toBe(true);
    expect(HEADER_TESTS.test(code("// isSqliteHeader is the intake's"))).toBe(false);
    expect(KIND_LITERAL.test(code(`kind === "${SIDE_FILE_KINDS[0]}"`))).toBe(true);
    expect(SIDE_FILE_KINDS.length).toBeGreaterThan(1);
  });

  it("no file outside src/core/ tests a header or names a side-file kind", () => {
    const offenders = hostFiles().flatMap((file) => {
      const text = code(readFileSync(file, "utf8"));
      const found = [text.match(HEADER_TESTS)?.[0], text.match(KIND_LITERAL)?.[0]].filter((hit) => hit !== undefined);
      return found.length > 0 ? [`${path.relative(SRC, file)}: ${found.join(", ")}`] : [];
    });
    expect(offenders).toEqual([]);
  });
});
