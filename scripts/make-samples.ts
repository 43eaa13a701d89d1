// Generates the built-in samples in public/samples/ (run: npx tsx scripts/make-samples.ts).
// Deterministic: the same sources always produce the same bytes. Session contents are our own
// writing about fictional projects; compaction fields are computed with src/core/agents/pi/compaction.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildEnglishSample } from "./samples/english";
import { buildKoreanSample } from "./samples/korean";

interface SampleIndexEntry {
  id: string;
  title: string;
  file: string;
  description: string;
}

export interface GeneratedSample extends SampleIndexEntry {
  text: string;
}

export function generateSamples(): GeneratedSample[] {
  return [
    {
      id: "pi-english-compaction",
      title: "pi · Rust CLI, Anthropic, compaction",
      file: "pi-english-compaction.jsonl",
      description:
        "A pi session (format v3) on a small Rust command-line tool with claude-sonnet-4-5: file reads, edits, a failing and then passing test run, a user `!git diff` command, an abandoned branch and one manual /compact with pi's default settings.",
      text: buildEnglishSample(),
    },
    {
      id: "pi-korean",
      title: "pi · Python web service, Korean user, OpenAI",
      file: "pi-korean.jsonl",
      description:
        "A pi session (format v3) with gpt-4.1 where the user writes in Korean and the tools answer in English: debugging a small FastAPI service, a user `!pytest` command and one manual /compact with pi's default settings.",
      text: buildKoreanSample(),
    },
  ];
}

function writeSamples(outDir: string): GeneratedSample[] {
  const samples = generateSamples();
  mkdirSync(outDir, { recursive: true });
  for (const sample of samples) writeFileSync(path.join(outDir, sample.file), sample.text);
  const index: SampleIndexEntry[] = samples.map(({ id, title, file, description }) => ({ id, title, file, description }));
  writeFileSync(path.join(outDir, "index.json"), `${JSON.stringify(index, null, 2)}\n`);
  return samples;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../public/samples");
  for (const sample of writeSamples(outDir)) {
    process.stdout.write(`${sample.file}: ${sample.text.length} chars\n`);
  }
}
