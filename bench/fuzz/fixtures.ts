// The inputs the fuzz run mutates: every committed test fixture's session file, and, when the
// shared fixture folder is present, its recorded cases, hermes side files, the real-world files
// under 1 MB and the hostile reproducers (never the large real-world files: their size would make
// each input slow without adding structures).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readSessionText, UnsupportedFormatError } from "../../src/core/session/index";

export interface FuzzFixture {
  name: string;
  fileName: string;
  text: string;
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SHARED = process.env.CONTEXTSCOPE_SHARED_DIR ?? path.resolve(REPO, "../shared");
/** Above this a file is skipped: one input must stay cheap enough for many thousands of runs. */
const MAX_FIXTURE_BYTES = 1_000_000;

function sessionFiles(caseDir: string): string[] {
  const dir = path.join(caseDir, "session");
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(jsonl|json)$/.test(name)) found.push(full);
    }
  };
  walk(dir);
  // One file per case: the main session (the first .jsonl, else export.json).
  const main = found.find((f) => f.endsWith(".jsonl")) ?? found.find((f) => f.endsWith("export.json"));
  return main ? [main] : [];
}

function casesUnder(root: string, label: string): FuzzFixture[] {
  if (!existsSync(root)) return [];
  const fixtures: FuzzFixture[] = [];
  for (const agent of readdirSync(root).sort()) {
    const agentDir = path.join(root, agent);
    if (!statSync(agentDir).isDirectory() || agent === "realworld" || agent === "hostile") continue;
    for (const id of readdirSync(agentDir).sort()) {
      const caseDir = path.join(agentDir, id);
      if (!statSync(caseDir).isDirectory()) continue;
      for (const file of sessionFiles(caseDir)) {
        if (statSync(file).size > MAX_FIXTURE_BYTES) continue;
        fixtures.push({ name: `${label}/${agent}/${id}`, fileName: path.basename(file), text: readFileSync(file, "utf8") });
      }
    }
  }
  return fixtures;
}

function hostile(): FuzzFixture[] {
  const dir = path.join(SHARED, "fixtures/hostile");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.(jsonl|json)$/.test(name))
    .sort()
    .map((name) => ({ name: `shared/hostile/${name}`, fileName: name, text: readFileSync(path.join(dir, name), "utf8") }));
}

/** Text files of a folder tree (no case layout), each under the size cap. */
function filesUnder(root: string, label: string): FuzzFixture[] {
  if (!existsSync(root)) return [];
  const fixtures: FuzzFixture[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(jsonl|json)$/.test(name) && statSync(full).size <= MAX_FIXTURE_BYTES) {
        fixtures.push({ name: `${label}/${path.relative(root, full)}`, fileName: name, text: readFileSync(full, "utf8") });
      }
    }
  };
  walk(root);
  return fixtures;
}

/**
 * Every fixture once: a shared case that is the same file as a committed one is left out. Besides
 * the recorded cases: hermes-agent's side files (snapshots, transcripts, exports) and the real
 * users' files small enough to mutate quickly, for the structures only real files have
 * (Claude Code progress lines and sub-agents, a Codex rollout without usage lines).
 */
export function fuzzFixtures(): FuzzFixture[] {
  const all = [
    ...casesUnder(path.join(REPO, "test/fixtures"), "test"),
    ...filesUnder(path.join(REPO, "test/fixtures/hermes/storage"), "test/hermes/storage"),
    ...casesUnder(path.join(SHARED, "fixtures"), "shared"),
    ...filesUnder(path.join(SHARED, "fixtures/hermes-storage/sessions"), "shared/hermes-storage"),
    ...filesUnder(path.join(SHARED, "fixtures/realworld"), "shared/realworld"),
    ...hostile(),
  ];
  const seen = new Set<string>();
  return all.filter((fixture) => !seen.has(fixture.text) && (seen.add(fixture.text), true) && readable(fixture));
}

/**
 * False for a file no reader takes even unmutated (the session of an agent whose policies the
 * simulator runs but whose files are not read yet, such as deepseek-harness): its mutants would
 * only measure the refusal.
 */
function readable(fixture: FuzzFixture): boolean {
  try {
    readSessionText(fixture.text, fixture.fileName);
    return true;
  } catch (error) {
    if (error instanceof UnsupportedFormatError) return false;
    throw error;
  }
}
