// Loads the pi fixtures (session + recorded requests) from test/fixtures for compaction tests.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readSessionText } from "../../../../../src/core/readers";
import type { Session } from "../../../../../src/core/model";
import { findJsonl } from "../../../../support/fixture-files";

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../fixtures/pi");

export type PiFixtureName = "print-openai-autocompact" | "rpc-anthropic-manualcompact";

export interface PiFixture {
  name: PiFixtureName;
  dir: string;
  sessionPath: string;
  session: Session;
  /** Raw text of requests/NNN.json. */
  requestText(n: number): string;
  request(n: number): Record<string, unknown>;
  meta(n: number): Record<string, unknown>;
  requestNumbers(): number[];
}

export function loadPiFixture(name: PiFixtureName, root = FIXTURES_DIR): PiFixture {
  const dir = path.join(root, name);
  const sessionPath = findJsonl(path.join(dir, "session"));
  const session = readSessionText(readFileSync(sessionPath, "utf8"), path.basename(sessionPath));
  const file = (n: number, ext: string) => path.join(dir, "requests", `${String(n).padStart(3, "0")}${ext}`);
  return {
    name,
    dir,
    sessionPath,
    session,
    requestText: (n) => readFileSync(file(n, ".json"), "utf8"),
    request: (n) => JSON.parse(readFileSync(file(n, ".json"), "utf8")) as Record<string, unknown>,
    meta: (n) => JSON.parse(readFileSync(file(n, ".meta.json"), "utf8")) as Record<string, unknown>,
    requestNumbers: () =>
      readdirSync(path.join(dir, "requests"))
        .filter((f) => /^\d{3}\.json$/.test(f))
        .map((f) => Number(f.slice(0, 3)))
        .sort((a, b) => a - b),
  };
}

/** Fixture settings from the READMEs (not stored in the session files). */
export const FIXTURE_SETTINGS: Record<PiFixtureName, { reserveTokens: number; keepRecentTokens: number }> = {
  "print-openai-autocompact": { reserveTokens: 11600, keepRecentTokens: 1800 },
  "rpc-anthropic-manualcompact": { reserveTokens: 4000, keepRecentTokens: 40 },
};

/** Summariser requests of each fixture, per compaction entry, in send order. */
export const FIXTURE_SUMMARY_REQUESTS: Record<PiFixtureName, { entryId: string; requests: number[]; customInstructions?: string }[]> = {
  "print-openai-autocompact": [
    { entryId: "d031100d", requests: [9] },
    { entryId: "2ca2e615", requests: [14] },
  ],
  "rpc-anthropic-manualcompact": [
    { entryId: "be3cec52", requests: [12] },
    {
      entryId: "6a015245",
      requests: [16, 17],
      customInstructions: "Focus on which files were read and which were written.",
    },
  ],
};
