// The two pi fixtures used by the compaction tests: loaded through the shared fixture loader,
// plus the settings they ran with and which recorded requests are their summariser requests.
import { fixtureCase, type FixtureCase } from "../../../../support/fixtures";

export type PiFixtureName = "print-openai-autocompact" | "rpc-anthropic-manualcompact";

/** test/fixtures/pi/<name>; throws when it is missing. */
export function loadPiFixture(name: PiFixtureName): FixtureCase {
  return fixtureCase(`pi/${name}`);
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
