// Journey: two sessions in a row. A first visit opens the sample and analyses it to the end (its
// exact prefix pass included); then every agent's file is opened over it. Every figure the page
// shows must then be the second session's: the overview's cache breaks, the timeline's Breaks
// filter, the turns the prefix rows cover and their token sum all equal what the CLI's `prefix`
// prints for that file — never the sample's, however long one waits.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { AGENTS, agentFilePath } from "./agentFiles";
import { dropFiles, expect, test } from "./support";

interface CliPrefix {
  turns: number;
  breaks: number;
  tokens: number;
}

/**
 * What `prefix` prints for the main thread of the first of `files`, given exactly the files the
 * page is given: they are copied alone into a folder of their own, so the CLI finds no other
 * file beside them (a database's home folder of transcripts) that the page does not have.
 */
function cliPrefix(files: string[]): CliPrefix {
  const folder = mkdtempSync(path.join(tmpdir(), "contextscope-second-session-"));
  let output: string;
  try {
    for (const file of files) copyFileSync(agentFilePath(file), path.join(folder, path.basename(file)));
    output = execFileSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "prefix", path.join(folder, path.basename(files[0]!)), "--jobs", "1"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 256 * 1024 * 1024,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const rows = output
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { tokens: number; cause: unknown; thread: string | null; serverVerdict: string | null; unexplainedMiss: boolean })
    .filter((row) => row.thread === null);
  // A break the page shows: one in the rebuilt requests, one the provider reported (a verdict
  // naming a change), or a miss the recorded usage shows and nothing explains.
  const shownBreak = (row: (typeof rows)[number]) => row.cause !== null || row.unexplainedMiss || (row.serverVerdict !== null && row.serverVerdict.endsWith("_changed"));
  return { turns: rows.length, breaks: rows.filter(shownBreak).length, tokens: rows.reduce((sum, row) => sum + row.tokens, 0) };
}

interface Shown {
  fileName: string | null;
  ready: boolean;
  prefixPass: string | null;
  prefixTurns: number | null;
  prefixTokensTotal: number | null;
  turnCount: number;
}

function shown(page: Page): Promise<Shown> {
  return page.evaluate(() => (window as unknown as { __contextscope: Shown }).__contextscope);
}

/** The first visit: the sample opens by itself and is analysed to its exact counts. */
async function openSampleToTheEnd(page: Page): Promise<string> {
  await page.goto("./");
  await page.waitForFunction(() => {
    const state = (window as unknown as { __contextscope?: Shown }).__contextscope;
    return Boolean(state?.ready) && state?.prefixPass === "exact";
  }, null, { timeout: 60_000 });
  return (await shown(page)).fileName!;
}

for (const files of AGENTS) {
  test(`${files.agent}: opened after the sample was analysed, every figure is its own`, async ({ page }) => {
    test.setTimeout(120_000);
    const expected = cliPrefix(files.files);
    const sample = await openSampleToTheEnd(page);
    await dropFiles(
      page,
      files.files.map((file) => ({ name: path.basename(file), base64: readFileSync(agentFilePath(file)).toString("base64") })),
    );
    await page.waitForFunction(
      (first) => {
        const state = (window as unknown as { __contextscope?: Shown }).__contextscope;
        return Boolean(state?.ready) && state?.fileName !== first;
      },
      sample,
      { timeout: 60_000 },
    );
    // The second session's exact pass, whose rows cover its own turns.
    await expect.poll(async () => {
      const state = await shown(page);
      return { pass: state.prefixPass, turns: state.prefixTurns, tokens: state.prefixTokensTotal };
    }, { timeout: 60_000 }).toEqual({ pass: "exact", turns: expected.turns, tokens: expected.tokens });
    expect((await shown(page)).turnCount).toBe(expected.turns);
    // The overview and the timeline filter say the same number of cache breaks, the CLI's.
    await expect(page.getByTestId("overview-breaks").locator(".session-overview-value")).toHaveText(expected.breaks.toLocaleString("en-US"));
    await expect(page.getByTestId("timeline-filter-breaks")).toHaveAttribute("data-count", String(expected.breaks));
  });
}
