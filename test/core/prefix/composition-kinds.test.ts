// The Tokens tab's kinds on every agent's recorded compaction (../shared/fixtures): once a
// compaction has happened, the summary standing for the earlier messages is counted as a summary,
// whatever the agent names its summary message, and a system prompt the agent sends as its first
// messages (hermes-agent's stored prompt, Codex's base and developer instructions) is counted
// once, as the system prompt.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { loadAnySession } from "../../../src/cli/inputs";
import type { CliIo } from "../../../src/cli/io";
import type { PipelineOptions } from "../../../src/core/model";
import { iterateSessionPrefixCompositions } from "../../../src/core/session/sessionPrefixCompositions";
import { describeShared, findSessionFile } from "../../support/fixtures";

const io: CliIo = { stdout: () => undefined, stderr: () => undefined, readFile: (file) => readFileSync(file) };
const OPTIONS: PipelineOptions = { profile: "pi", leafId: null };

const RECORDINGS: { agent: string; file: (root: string) => string; session?: string }[] = [
  { agent: "pi", file: (root) => findSessionFile(path.join(root, "pi/print-openai-autocompact/session"), ".jsonl") },
  { agent: "Claude Code", file: (root) => findSessionFile(path.join(root, "claude/print-autocompact-manualcompact/session"), ".jsonl") },
  { agent: "Codex", file: (root) => findSessionFile(path.join(root, "codex/exec-autocompact/session"), ".jsonl") },
  { agent: "Gemini CLI", file: (root) => findSessionFile(path.join(root, "gemini-cli/p-resume-autocompress/session"), ".jsonl") },
  { agent: "opencode", file: (root) => path.join(root, "opencode/run-autocompact/session/opencode-db/opencode.db") },
  { agent: "deepseek-harness", file: (root) => findSessionFile(path.join(root, "deepseek-harness/headless-deepseek-manualcompact/session"), ".zstd") },
  { agent: "hermes-agent", file: (root) => path.join(root, "hermes-storage/state.db"), session: "20261201_090624_dbb368" },
];

describeShared("composition kinds on every agent's compaction", (shared) => {
  for (const recording of RECORDINGS) {
    it(`${recording.agent}: after the compaction, its summary is counted as a summary`, async () => {
      const session = await loadAnySession(io, recording.file(shared.dir), recording.session ?? null);
      const turns = [...iterateSessionPrefixCompositions(session, OPTIONS, { tokenizer: "estimate" })];
      expect(turns.length).toBeGreaterThan(1);
      const withSummary = turns.filter(({ composition }) => (composition.byKind.summary ?? 0) > 0);
      expect(withSummary.length, "turns whose context holds a compaction summary").toBeGreaterThan(0);
      // Before any compaction there is no summary.
      expect(turns[0]!.composition.byKind.summary ?? 0).toBe(0);
    });
  }

  const SENT_AS_SYSTEM: { agent: string; file: (root: string) => string; session?: string }[] = [
    { agent: "hermes-agent", file: (root) => path.join(root, "hermes-storage/state.db"), session: "20261201_090624_3e9952" },
    { agent: "Codex", file: (root) => findSessionFile(path.join(root, "codex/exec-autocompact/session"), ".jsonl") },
  ];
  for (const recording of SENT_AS_SYSTEM) {
    it(`${recording.agent}: the system prompt sent as the first messages is counted once, as the system prompt`, async () => {
      const session = await loadAnySession(io, recording.file(shared.dir), recording.session ?? null);
      const turns = [...iterateSessionPrefixCompositions(session, OPTIONS, { tokenizer: "o200k" })];
      expect(turns.length).toBeGreaterThan(0);
      for (const { report, composition } of turns) {
        expect(composition.byKind.system ?? 0).toBeGreaterThan(0);
        // The kinds' sum is the request's text: never above the whole request by a second prompt.
        expect(composition.total).toBeLessThanOrEqual(report.tokens);
      }
    });
  }
});
