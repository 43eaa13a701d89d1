// How the drift harness drives each agent: its npm package and executable, how one prompt is sent
// in its headless mode (each invocation continues the same session), the configuration that points
// it at the recording proxy, its shell tool's name and arguments (the scripted provider calls tools
// in the agent's own vocabulary), how automatic compaction is provoked, and where it writes the
// session file. The commands and settings are those of the shared recordings in
// ../shared/fixtures/<agent>/*/README.md, which were made the same way.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DSH_RUNNER_MANIFEST, DSH_RUNNER_PACKAGE, DSH_RUNNER_PATCH, DSH_RUNNER_SOURCE } from "./dshRunner";
import type { ProviderSettings } from "./provider";

export interface DriveContext {
  home: string;
  workspace: string;
  /** The recording proxy's base URL (http://127.0.0.1:PORT), for agents configured by file. */
  proxyUrl: string;
}

export interface AgentDriver {
  /** The agent's id as the harness is called with it (`npm run drift -- <id>@<version>`). */
  id: string;
  packageName: string;
  /** The executable the package installs (node_modules/.bin/<bin>). */
  bin: string;
  provider: ProviderSettings;
  /** Environment for every invocation (dummy credentials, no telemetry or updates). */
  env: (context: DriveContext) => Record<string, string>;
  /** Writes the agent's configuration under the temporary home. */
  configure: (context: DriveContext) => void;
  /** The arguments that send `prompt`; `first` for the session's first invocation. */
  argv: (prompt: string, first: boolean) => string[];
  /** A prompt that compacts the conversation by hand, sent after the turn named, where the agent has one in headless mode. */
  manualCompaction?: { afterTurn: number; prompt: string };
  /** The session's files once the run ended (the main file first). */
  sessionFiles: (context: DriveContext) => string[];
  /** The oldest Node major version the agent runs on, when newer than the harness needs (checked against `node` on PATH). */
  minNodeMajor?: number;
  /**
   * Packages installed beside the agent (name@version): peer dependencies npm is told not to
   * resolve (see installFlags), and pins for a version whose ranges reach releases it breaks on.
   */
  companions?: (version: string) => string[];
  /** Extra `npm install` flags. */
  installFlags?: string[];
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Every file under `folder` whose name passes `accept`, newest last. */
function filesUnder(folder: string, accept: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (accept(entry.name)) found.push(full);
    }
  };
  walk(folder);
  return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

const QUIET = { DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1" };

const claudeCode: AgentDriver = {
  id: "claude-code",
  packageName: "@anthropic-ai/claude-code",
  bin: "claude",
  // Compacts at the start of the next prompt once a response reported more than the window allows.
  provider: { shellCall: (command) => ({ name: "Bash", args: { command, description: "Run a shell command" } }), inflate: { turn: 3, step: 1, inputTokens: 95000 } },
  env: () => ({
    ...QUIET,
    ANTHROPIC_API_KEY: "dummy-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_AUTO_COMPACT_WINDOW: "100000",
  }),
  configure: () => undefined,
  argv: (prompt, first) => ["-p", ...(first ? [] : ["--continue"]), "--allowedTools", "Bash Read Write Edit Glob Grep", "--output-format", "json", prompt],
  manualCompaction: { afterTurn: 6, prompt: "/compact" },
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".claude", "projects"), (name) => name.endsWith(".jsonl")),
};

const pi: AgentDriver = {
  id: "pi",
  packageName: "@mariozechner/pi-coding-agent",
  bin: "pi",
  // Compacts after a prompt once the context passed contextWindow - reserveTokens (4,400 here).
  provider: { shellCall: (command) => ({ name: "bash", args: { command } }), inflate: { turn: 3, step: 1, inputTokens: 5000 } },
  env: () => ({ ...QUIET }),
  configure: ({ home, proxyUrl }) => {
    writeJson(path.join(home, ".pi", "agent", "models.json"), {
      providers: {
        fake: {
          baseUrl: `${proxyUrl}/v1`,
          api: "openai-completions",
          apiKey: "dummy-key",
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: "fake-model", name: "Fake Model", contextWindow: 16000, maxTokens: 4000 }],
        },
      },
    });
    writeJson(path.join(home, ".pi", "agent", "settings.json"), { compaction: { enabled: true, reserveTokens: 11600, keepRecentTokens: 1800 } });
  },
  argv: (prompt, first) => ["--provider", "fake", "--model", "fake-model", ...(first ? [] : ["--continue"]), "-p", prompt],
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".pi", "agent", "sessions"), (name) => name.endsWith(".jsonl")),
};

const codex: AgentDriver = {
  id: "codex",
  packageName: "@openai/codex",
  bin: "codex",
  // Compacts at the start of the next prompt once the session's tokens reached model_auto_compact_token_limit.
  provider: { shellCall: (command) => ({ name: "exec_command", args: { cmd: command } }), inflate: { turn: 3, step: 1, inputTokens: 14000 } },
  env: () => ({ ...QUIET, FAKE_API_KEY: "dummy-key" }),
  configure: ({ home, proxyUrl }) => {
    mkdirSync(path.join(home, ".codex"), { recursive: true });
    writeFileSync(
      path.join(home, ".codex", "config.toml"),
      [
        'model = "fake-model"',
        'model_provider = "fake"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        "model_auto_compact_token_limit = 13500",
        "",
        "[model_providers.fake]",
        'name = "Fake provider"',
        `base_url = "${proxyUrl}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_API_KEY"',
        "",
      ].join("\n"),
    );
  },
  argv: (prompt, first) => ["exec", ...(first ? [] : ["resume", "--last"]), "--skip-git-repo-check", "--json", prompt],
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".codex", "sessions"), (name) => name.startsWith("rollout-") && name.endsWith(".jsonl")),
};

/**
 * The config opencode and its fork Kilo both read: the fake provider as their one model (with the
 * given context window and 4,000 output tokens), automatic compaction on, every tool allowed.
 */
function opencodeStyleConfig(proxyUrl: string, context: number): Record<string, unknown> {
  return {
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake provider",
        options: { baseURL: `${proxyUrl}/v1`, apiKey: "dummy-key" },
        models: { "fake-model": { name: "Fake Model", limit: { context, output: 4000 } } },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    autoupdate: false,
    share: "disabled",
    compaction: { auto: true },
    permission: { edit: "allow", bash: "allow", webfetch: "allow" },
  };
}

const opencode: AgentDriver = {
  id: "opencode",
  packageName: "opencode-ai",
  bin: "opencode",
  // Compacts once a response's tokens pass the model's context less its output limit (11,000 here).
  provider: { shellCall: (command) => ({ name: "bash", args: { command, description: "Run a shell command" } }), inflate: { turn: 3, step: 1, inputTokens: 12000 } },
  env: () => ({ ...QUIET, OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" }),
  configure: ({ home, proxyUrl }) => {
    writeJson(path.join(home, ".config", "opencode", "opencode.json"), { $schema: "https://opencode.ai/config.json", ...opencodeStyleConfig(proxyUrl, 15000) });
  },
  argv: (prompt, first) => ["run", ...(first ? [] : ["--continue"]), "--format", "json", prompt],
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".local", "share", "opencode"), (name) => name === "opencode.db"),
};

const geminiCli: AgentDriver = {
  id: "gemini-cli",
  packageName: "@google/gemini-cli",
  bin: "gemini",
  // Compresses before any request once the last prompt count reached half the model's window.
  provider: { shellCall: (command) => ({ name: "run_shell_command", args: { command, description: "Run a shell command" } }), inflate: { turn: 3, step: 0, inputTokens: 600000 } },
  env: () => ({ ...QUIET, GEMINI_API_KEY: "dummy-key" }),
  configure: ({ home, workspace }) => {
    writeJson(path.join(home, ".gemini", "settings.json"), {
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false },
    });
    writeJson(path.join(home, ".gemini", "trustedFolders.json"), { [workspace]: "TRUST_FOLDER" });
  },
  argv: (prompt, first) => ["-m", "gemini-2.5-flash", "--approval-mode", "yolo", ...(first ? [] : ["--resume", "latest"]), "-p", prompt],
  // Every resumed process also starts a small file of its own under the same session id (0.61.0);
  // the conversation goes on in the first one, the largest.
  sessionFiles: ({ home }) =>
    filesUnder(path.join(home, ".gemini", "tmp"), (name) => name.startsWith("session-"))
      .sort((a, b) => statSync(b).size - statSync(a).size)
      .slice(0, 1),
};

const qwenCode: AgentDriver = {
  id: "qwen-code",
  packageName: "@qwen-code/qwen-code",
  bin: "qwen",
  // 170,000 prompt tokens on the last response of turn 4, as the recording did (QWEN_INFLATE=4:2): the
  // next process finds the restored count above the automatic threshold (167,000 for a model of
  // unknown window) and compresses before its first request.
  provider: {
    shellCall: (command) => ({ name: "run_shell_command", args: { command, description: "Run a shell command" } }),
    inflate: { turn: 3, step: 1, inputTokens: 170000 },
    summaryForm: "state-snapshot",
  },
  env: ({ proxyUrl }) => ({ ...QUIET, OPENAI_API_KEY: "dummy-key", OPENAI_BASE_URL: `${proxyUrl}/v1`, OPENAI_MODEL: "fake-model" }),
  configure: ({ home }) => {
    writeJson(path.join(home, ".qwen", "settings.json"), {
      security: { auth: { selectedType: "openai" } },
      model: { name: "fake-model" },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
      memory: { enableManagedAutoMemory: false },
    });
  },
  argv: (prompt, first) => ["--auth-type", "openai", "-m", "fake-model", "--approval-mode", "yolo", ...(first ? [] : ["--continue"]), "-p", prompt],
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".qwen", "projects"), (name) => name.endsWith(".jsonl")),
};

const kilo: AgentDriver = {
  id: "kilo",
  packageName: "@kilocode/cli",
  bin: "kilo",
  // A fork of opencode, driven the same way: compacts once the last response's tokens passed the
  // model's context less its output limit. Its system prompt and 16 tools alone are about 12,600
  // tokens by the provider's count, so the window is 40,000 (threshold 36,000) and the inflated step 38,000.
  provider: { shellCall: (command) => ({ name: "bash", args: { command, description: "Run a shell command" } }), inflate: { turn: 3, step: 1, inputTokens: 38000 } },
  env: () => ({ ...QUIET, KILO_DISABLE_MODELS_FETCH: "1", KILO_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" }),
  configure: ({ home, proxyUrl }) => {
    writeJson(path.join(home, ".config", "kilo", "kilo.json"), opencodeStyleConfig(proxyUrl, 40000));
  },
  argv: (prompt, first) => ["run", ...(first ? [] : ["--continue"]), "--format", "json", prompt],
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".local", "share", "kilo"), (name) => name === "kilo.db"),
};

const kimiCode: AgentDriver = {
  id: "kimi-code",
  packageName: "@moonshot-ai/kimi-code",
  bin: "kimi",
  // Needs Node 22.19 or newer on PATH. Pointed at the proxy by its config.toml, as an OpenAI Chat
  // Completions provider; compacts once the context passes the model's window less the reserve.
  // It adds `<system-reminder>` user messages after a prompt (the date, the permission mode).
    // Its system prompt and tools alone are about 21,000 tokens by the provider's count; the window is
  // 40,000 with a reserve of 8,000, so a context of 33,000 compacts before the next turn.
  provider: { shellCall: (command) => ({ name: "Bash", args: { command } }), inflate: { turn: 3, step: 1, inputTokens: 33000 }, reminderPrefix: "<system-reminder>" },
  env: () => ({ ...QUIET }),
  configure: ({ home, proxyUrl }) => {
    mkdirSync(path.join(home, ".kimi-code"), { recursive: true });
    writeFileSync(
      path.join(home, ".kimi-code", "config.toml"),
      [
        'default_model = "fake"',
        "",
        "[providers.fake]",
        'type = "openai"',
        `base_url = "${proxyUrl}/v1"`,
        'api_key = "dummy-key"',
        "",
        "[models.fake]",
        'provider = "fake"',
        'model = "fake-model"',
        "max_context_size = 40000",
        "",
        "[loop_control]",
        "reserved_context_size = 8000",
        "",
      ].join("\n"),
    );
    writeFileSync(path.join(home, ".kimi-code", "tui.toml"), "[upgrade]\nauto_install = false\n");
  },
  argv: (prompt, first) => [...(first ? [] : ["--continue"]), "-p", prompt],
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".kimi-code", "sessions"), (name) => name === "wire.jsonl"),
};

const crush: AgentDriver = {
  id: "crush",
  packageName: "@charmland/crush",
  bin: "crush",
  // Written from Crush's source (docs/formats/crush.md), never run here: the package downloads its
  // binary from GitHub releases at install. Crush summarises after a step once the session's last
  // prompt and output tokens leave 20% of a window of 200,000 or less: a 40,000-token window
  // summarises at 32,000, so the inflated step reports 34,000.
  provider: { shellCall: (command) => ({ name: "bash", args: { description: "Run a shell command", command } }), inflate: { turn: 3, step: 1, inputTokens: 34000 } },
  env: () => ({ ...QUIET, CRUSH_DISABLE_METRICS: "1", CRUSH_DISABLE_PROVIDER_AUTO_UPDATE: "1", CRUSH_DISABLE_DEFAULT_PROVIDERS: "1" }),
  configure: ({ home, proxyUrl }) => {
    writeJson(path.join(home, ".config", "crush", "crush.json"), {
      providers: {
        fake: {
          type: "openai-compat",
          base_url: `${proxyUrl}/v1`,
          api_key: "dummy-key",
          models: [{ id: "fake-model", name: "Fake Model", context_window: 40000, default_max_tokens: 4000 }],
        },
      },
      models: { large: { model: "fake-model", provider: "fake" }, small: { model: "fake-model", provider: "fake" } },
      permissions: { allowed_tools: ["bash", "view", "edit", "write", "ls", "glob", "grep"] },
    });
  },
  argv: (prompt, first) => ["run", "--quiet", ...(first ? [] : ["--continue"]), prompt],
  // The project's own database, `.crush/crush.db` in the workspace.
  sessionFiles: ({ workspace }) => filesUnder(path.join(workspace, ".crush"), (name) => name === "crush.db"),
};

/** deepseek-harness packages its plugins name only as peer dependencies (0.1.0-rc.8). */
const DSH_SERVICE_PEERS = [
  "anonymous-user-id", "atomic-write", "bash-local", "code-runtime", "compaction", "fs", "invariants", "output-retention", "sandbox",
  "scope", "session-telemetry", "session-title-llm", "shell", "spill", "subagent-in-process-driver", "timeout", "workflow",
];

const deepseekHarness: AgentDriver = {
  id: "deepseek-harness",
  packageName: "@deepseek-ai/dsh",
  bin: "dsh",
  // Its DeepSeek adapter posts to $DEEPSEEK_BASE_URL/chat/completions (no /v1). After a prompt it
  // adds a runtime-context user message ("Current runtime context. …"), not a summariser's.
  // Its pressure check (before each step) takes the last response's reported usage as the context
  // when that is no less than its own estimate: 800,200 on turn 4's last step passes the threshold
  // of 80% of deepseek-v4-flash's 1,000,000 window, and the next process compacts before turn 5's
  // first step. The reported count stays its measure until the next answer, so a second attempt
  // follows and fails on the shrink guard: a failed compaction, whose request is not logged.
  provider: {
    shellCall: (command) => ({ name: "bash", args: { command, description: "Run a shell command" } }),
    inflate: { turn: 3, step: 1, inputTokens: 800200 },
    reminderPrefix: "Current runtime context.",
  },
  env: ({ home, proxyUrl }) => ({
    ...QUIET,
    DSH_HOME: path.join(home, ".dsh"),
    DEEPSEEK_API_KEY: "dummy-key",
    DEEPSEEK_BASE_URL: proxyUrl,
    DSH_TELEMETRY_DISABLED: "1",
    // No bubblewrap sandbox and no approval prompts, as in the shared recording.
    DSH_PERMISSION_MODE: "danger-full-access",
  }),
  // The shipped headless runner answers one task in a fresh session; a home-level patch layer puts
  // a runner in its place that continues the session (scripts/drift/dshRunner.ts).
  configure: ({ home }) => {
    const dshHome = path.join(home, ".dsh");
    const plugin = path.join(dshHome, "profiles", "headless", "node_modules", DSH_RUNNER_PACKAGE);
    writeJson(path.join(plugin, "package.json"), DSH_RUNNER_MANIFEST);
    writeFileSync(path.join(plugin, "index.js"), DSH_RUNNER_SOURCE);
    writeFileSync(path.join(dshHome, "cordis.patch.yml"), DSH_RUNNER_PATCH);
  },
  argv: (prompt) => ["--profile", "headless", prompt],
  // `/compact` runs through the command registry, between turns.
  manualCompaction: { afterTurn: 6, prompt: "/compact" },
  sessionFiles: ({ home }) => filesUnder(path.join(home, ".dsh", "sessions"), (name) => name === "session.jsonl.zstd" || name === "session.jsonl"),
  minNodeMajor: 22,
  // npm's own peer resolution of its ~430 packages ran over 15 minutes and 3 GB without finishing;
  // with peers left out it takes two minutes, and the harness's service-definition packages (peers
  // of the plugins that implement them, released with the agent) are installed beside it. The
  // Cordis packages (its plugin host) are pinned to the versions of 0.1.0-rc.8's release, as the
  // shared recording was made (its notes say the newest on npm break rc.8's launcher).
  installFlags: ["--legacy-peer-deps"],
  companions: (version) => [
    ...DSH_SERVICE_PEERS.map((name) => `@deepseek-ai/dsh-${name}@${version}`),
    "@deepseek-ai/cordis@4.0.1",
    "@deepseek-ai/cordis-plugin-hmr@1.0.16",
    "@deepseek-ai/cordis-plugin-loader@1.0.2",
    "@deepseek-ai/cordis-plugin-include@1.0.6",
    "@deepseek-ai/cordis-plugin-timer@1.1.3",
    "@deepseek-ai/cordis-plugin-group@1.0.1",
    "@deepseek-ai/cosmokit@1.8.2",
    "@deepseek-ai/schemastery@3.18.1",
  ],
};

export const DRIVERS: AgentDriver[] = [claudeCode, pi, codex, opencode, geminiCli, qwenCode, kilo, kimiCode, crush, deepseekHarness];
