// A small seeded run of the fuzz harness (bench/fuzz, docs/fuzzing.md) inside the unit tests: the
// same mutation families over every committed fixture, in this process, each input through every
// stage. No input may throw, hang past the bound, or lose a valid line. The shared fixtures and the
// long run are `npm run fuzz -- --seconds N`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exerciseInput, lostValidLines, validLinesOf } from "../../bench/fuzz/exercise";
import { FAMILY_NAMES, HEAVY_FAMILIES, mutate } from "../../bench/fuzz/mutators";
import { UnsupportedFormatError } from "../../src/core/session/index";
import { REPO_ROOT } from "../support/fixtures";

/** Each committed case's session file (the first .jsonl, else export.json), below 1 MB. */
function committedSessions(): { name: string; fileName: string; text: string }[] {
  const root = path.join(REPO_ROOT, "test/fixtures");
  const found: { name: string; fileName: string; text: string }[] = [];
  for (const agent of readdirSync(root).sort()) {
    for (const id of readdirSync(path.join(root, agent)).sort()) {
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir).sort()) {
          const full = path.join(dir, name);
          if (statSync(full).isDirectory()) walk(full);
          else files.push(full);
        }
      };
      const sessionDir = path.join(root, agent, id, "session");
      try {
        walk(sessionDir);
      } catch {
        continue;
      }
      const file = files.find((f) => f.endsWith(".jsonl")) ?? files.find((f) => f.endsWith("export.json"));
      if (file && statSync(file).size < 1_000_000) found.push({ name: `${agent}/${id}`, fileName: path.basename(file), text: readFileSync(file, "utf8") });
    }
  }
  return found;
}

const FIXTURES = committedSessions();
const FAMILIES = FAMILY_NAMES.filter((family) => !HEAVY_FAMILIES.has(family));
/** Per input: far above a normal run (tens of ms), far below a hang. */
const BOUND_MS = 10_000;

describe("fuzz subset (seeded)", () => {
  it("finds the committed fixtures", () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(5);
  });

  for (const fixture of FIXTURES) {
    it(`${fixture.name}: every family, three seeds each, no throw, no hang, no valid line lost`, () => {
      const valid = validLinesOf(fixture.fileName, fixture.text);
      let ran = 0;
      for (const family of FAMILIES) {
        for (const seed of [11, 12, 48]) {
          const text = mutate(fixture.text, family, seed);
          if (text === null) continue;
          const started = Date.now();
          let result;
          try {
            result = exerciseInput(fixture.fileName, text, { variant: seed, depth: seed === 48 ? "all" : "view" });
          } catch (error) {
            // A file no reader recognises is refused with the readers' message: not a crash.
            const original = (error as { original?: unknown }).original;
            if (original instanceof UnsupportedFormatError) continue;
            throw new Error(`${family} seed ${seed}: ${(error as Error).message}`);
          }
          ran++;
          expect(Date.now() - started, `${family} seed ${seed}`).toBeLessThan(BOUND_MS);
          if (valid) expect(lostValidLines(valid, text, result.session), `${family} seed ${seed}`).toEqual([]);
        }
      }
      expect(ran).toBeGreaterThan(10);
    }, 120_000);
  }

  it("a 10,000-deep value and a huge field are answered within the bound", () => {
    // A recorded session with many entries (the small hand-written pi cases have a handful).
    const fixture = FIXTURES.find((f) => f.name === "pi/print-openai-autocompact")!;
    for (const family of ["deep-nesting", "huge-field"]) {
      const text = mutate(fixture.text, family, 5)!;
      const started = Date.now();
      const result = exerciseInput(fixture.fileName, text, { variant: 5, depth: "view" });
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(result.session.entries.length).toBeGreaterThan(10);
    }
  }, 120_000);
});
