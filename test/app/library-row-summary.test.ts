// A sessions-library row made by the summary pass equals `scan`'s line for the same files, on the
// real sessions users published (../shared/fixtures/realworld, realworld-next) and the shared
// recordings (../shared/fixtures/claude, codex): turns, compactions, threads, the whole session's
// tokens and dollars, the breaks the provider reported, project and lineage. The page splits the
// bytes into lines itself (no Node buffer there); those lines equal `scan`'s, chunk edges included.
// A row of an agent without a summary pass is the full rebuild, as `scan --full` makes its line.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { analyseJob } from "../../src/cli/scan/analyse";
import { byteLines } from "../../src/cli/scan/byteLines";
import { discoverSessions } from "../../src/cli/scan/discover";
import type { ScanLine } from "../../src/cli/scan/line";
import { hasSummaryPass, libraryRowFacts, libraryRowFromBytes, type LibraryRowFacts } from "../../src/app/libraryRow";
import { bytesSummaryLines } from "../../src/core/session/summary";
import { readSessionText } from "../../src/core/session/index";
import type { LineWanted } from "../../src/core/agents/descriptor";
import { describeShared } from "../support/fixtures";

const readFile = (file: string) => new Uint8Array(readFileSync(file));

/** The figures a row and a line both give, in the line's terms. */
function lineFigures(line: ScanLine) {
  const whole = line.wholeSession!;
  return {
    project: line.project,
    turns: line.turns,
    compactions: line.compactions,
    threads: line.threads,
    tokens: whole.callsWithUsage === 0 ? null : whole.input + whole.cacheRead + whole.cacheWrite + whole.output,
    cost: whole.callsWithUsage === 0 ? null : whole.cost,
    reportedBreaks: line.recordedInputTokens === null ? null : line.reportedBreaks,
    pass: line.pass,
  };
}

function rowFigures(row: LibraryRowFacts) {
  return {
    project: row.project,
    turns: row.turns,
    compactions: row.compactions,
    threads: row.threads,
    tokens: row.tokens,
    cost: row.tokens === null ? null : { status: row.cost.status, dollars: row.cost.dollars },
    reportedBreaks: row.reportedBreaks,
    pass: row.pass,
  };
}

describeShared("library rows by the summary pass equal scan's lines", (shared) => {
  const folders = ["realworld", "realworld-next", "claude", "codex"].map((name) => path.join(shared.dir, name));
  const { jobs } = discoverSessions(folders);
  const byFolder = new Map<string, number>();

  for (const job of jobs.filter((candidate) => candidate.sideFiles.length === 0)) {
    const name = path.relative(shared.dir, job.file);
    it(`${name}: the row's figures are the scan line's`, async () => {
      const line = await analyseJob(job, { tokenizer: "estimate", full: false }, readFile);
      const row = libraryRowFromBytes([job.file, ...job.with].map((file) => ({ name: path.basename(file), bytes: readFile(file) })));
      // The page asks its head first (so another agent's file is read once): the same answer as the whole file.
      const bytes = readFile(job.file);
      const head = 64 * 1024;
      expect(hasSummaryPass(bytes.subarray(0, head), path.basename(job.file), bytes.length <= head)).toBe(line.pass === "summary");
      if (line.pass !== "summary") {
        // No summary pass for this agent: the library reads it in full too.
        expect(row).toBeNull();
        return;
      }
      expect(line.error).toBeNull();
      expect(row).not.toBeNull();
      expect(rowFigures(row!)).toEqual(lineFigures(line));
      expect(row!.rebuiltBreaks).toBeNull();
      const top = name.split(path.sep)[0]!;
      byFolder.set(top, (byFolder.get(top) ?? 0) + 1);
    }, 300_000);
  }

  it("compared rows in every folder (Claude Code and Codex files are there)", () => {
    for (const folder of ["realworld", "realworld-next", "claude", "codex"]) expect(byFolder.get(folder) ?? 0).toBeGreaterThan(0);
  });

  it("the page's line split equals scan's, with and without a summariser's markers, at any chunk size", () => {
    const wanted: LineWanted = (contains) => contains('"assistant"') || contains('"token_count"');
    let checked = 0;
    for (const job of jobs) {
      const bytes = readFile(job.file);
      if (bytes[0] === 0x53) continue; // a SQLite database is no lines
      for (const filter of [undefined, wanted]) {
        const expected = [...byteLines(bytes, filter)];
        expect([...bytesSummaryLines(bytes, filter)]).toEqual(expected);
        expect([...bytesSummaryLines(bytes, filter, 997)]).toEqual(expected);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  }, 300_000);
});

describeShared("library rows of agents without a summary pass are the full rebuild, as scan --full", (shared) => {
  const { jobs } = discoverSessions([path.join(shared.dir, "realworld", "pi")]);
  for (const job of jobs.filter((candidate) => candidate.with.length === 0 && candidate.sideFiles.length === 0).slice(0, 3)) {
    it(`${path.relative(shared.dir, job.file)}`, async () => {
      const line = await analyseJob(job, { tokenizer: "estimate", full: false }, readFile);
      expect(line.pass).toBe("full");
      const row = libraryRowFacts(readSessionText(readFileSync(job.file, "utf8"), path.basename(job.file))!);
      expect(rowFigures(row)).toEqual(lineFigures(line));
      expect(row.rebuiltBreaks).toBe(line.breaks);
    }, 300_000);
  }
});
