// The files of every agent the journeys open as a new user would: each agent's recording and a
// real user's file (../shared/fixtures), and for the newer agents our own recordings and fixtures
// (test/fixtures, written "own/…"), with what the page should say about them.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot, sharedFixturePath } from "./support";

const OWN = "own/";

/** Where a file of `AGENTS` is: under test/fixtures when it starts with "own/", else under ../shared/fixtures. */
export function agentFilePath(file: string): string {
  if (!file.startsWith(OWN)) return sharedFixturePath(file);
  const full = path.join(repoRoot, "test/fixtures", file.slice(OWN.length));
  if (!existsSync(full)) throw new Error(`${full} is absent: a committed fixture moved`);
  return full;
}

export interface AgentFiles {
  agent: string;
  /** Files dropped together, relative to ../shared/fixtures, or to test/fixtures when they start with "own/". */
  files: string[];
  /** The format label the top bar shows. */
  format: RegExp;
  /** The session has a recorded compaction row. */
  compaction: boolean;
  /** Warnings this file really deserves (it was trimmed, or shared without a file it needs). */
  warnings?: { count: number; why: string };
}

/** The one `.jsonl` under a recording's `session/` folder. */
function sessionFileOf(recording: string): string {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : full.endsWith(".jsonl") ? [full] : [];
    });
  const found = walk(sharedFixturePath(recording, "session"));
  if (found.length !== 1) throw new Error(`${recording}: expected one session file, found ${found.length}`);
  return path.relative(sharedFixturePath(), found[0]!);
}

export const AGENTS: AgentFiles[] = [
  { agent: "pi", files: [sessionFileOf("pi/rpc-anthropic-manualcompact")], format: /pi session/i, compaction: true },
  { agent: "pi (real)", files: ["realworld/pi/pi-mono-large-session-v1.jsonl"], format: /pi session/i, compaction: false },
  { agent: "senpi", files: [sessionFileOf("senpi/print-openai-autocompact")], format: /pi session/i, compaction: true },
  { agent: "Claude Code", files: [sessionFileOf("claude/print-autocompact-manualcompact")], format: /Claude Code/, compaction: true },
  { agent: "Claude Code (real)", files: ["realworld/claude-code/codemie-session-624a4a58-compaction.jsonl"], format: /Claude Code/, compaction: true },
  { agent: "Codex", files: [sessionFileOf("codex/exec-autocompact")], format: /Codex/, compaction: true },
  {
    agent: "Codex (real)",
    files: ["realworld/codex/codemie-rollout-0.128-desktop.jsonl"],
    format: /Codex/,
    compaction: false,
    // The sharer kept some line types only: no turn_context, no user message items.
    warnings: { count: 1, why: "without the user message item" },
  },
  { agent: "Gemini CLI", files: [sessionFileOf("gemini-cli/p-resume-autocompress")], format: /Gemini CLI/, compaction: true },
  { agent: "Qwen Code", files: [sessionFileOf("qwen-code/p-continue-autocompress")], format: /Qwen Code/, compaction: true },
  { agent: "opencode", files: ["opencode/run-autocompact/session/opencode-db/opencode.db", "opencode/run-autocompact/session/opencode-db/opencode.db-wal"], format: /opencode/, compaction: true },
  {
    agent: "opencode (real)",
    files: ["realworld/opencode/suhd550-stunning-memory-v1.16/opencode.db"],
    format: /opencode/,
    compaction: false,
    // Shared without its -wal: the page says recent rows may be missing.
    warnings: { count: 1, why: "without its -wal file" },
  },
  {
    agent: "deepseek-harness",
    files: ["deepseek-harness/headless-deepseek-manualcompact/session/--home-dev-dsh-manual-compact-tidewater--/session-dc1086b1-208d-42e8-b3ef-9b8679a11273/session.jsonl.zstd"],
    format: /deepseek-harness/,
    compaction: true,
  },
  { agent: "hermes-agent", files: ["hermes-storage/state.db", "hermes-storage/state.db-wal"], format: /hermes-agent/, compaction: true },
  { agent: "hermes-agent (real)", files: ["realworld/hermes/juliuss-kb/sessions/session_20260424_182100_85ae43c6.json"], format: /hermes-agent/, compaction: false },
  { agent: "Kilo Code", files: ["own/kilo/run-autocompact/session/kilo.db", "own/kilo/run-autocompact/session/kilo.db-wal"], format: /Kilo/, compaction: true },
  { agent: "Kimi Code", files: ["own/kimi-code/run-autocompact/session/wire.jsonl"], format: /Kimi Code/, compaction: true },
  { agent: "Copilot CLI", files: ["own/copilot-cli/recording-1.0.102/events.jsonl"], format: /Copilot CLI/, compaction: false },
  { agent: "Crush", files: ["own/crush/hand-made/crush.db", "own/crush/hand-made/crush.db-wal"], format: /Crush/, compaction: true },
  { agent: "Session trace (STS)", files: ["own/hf-sts/hub-docs-example/what-time-is-it.jsonl"], format: /session trace \(STS\)/, compaction: false },
];

