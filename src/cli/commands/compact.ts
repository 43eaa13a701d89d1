// `compact`: the compaction simulator on the command line.
// `compact <session> --turn N --policy <id>` prints one JSON object for a simulation after turn N;
// `--replay-recorded` prints one line per compaction recorded in the session, re-run under the
// policy; `--replay-session` runs the policy's trigger over every turn (optionally `--compare`
// with a second policy). Instruction slots are filled from captured summariser requests given with
// `--instructions-from` (a file, or a folder of request bodies).
import { allAgents, defaultProfileOf, PROFILE_IDS } from "../../core/session/agents";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { API_IDS, type ApiId, type PipelineOptions, type ProfileId } from "../../core/model";
import { countTurns } from "../../core/session/pipeline";
import {
  comparePolicies,
  getPolicy,
  inferSettings,
  mergeSlotValues,
  POLICY_IDS,
  replayRecordedCompactions,
  replaySession,
  simulateCompaction,
  type CapturedBody,
  type LimitOverrides,
  type PolicyId,
  type PolicyParameters,
  type SettingsInference,
  type SummarySource,
} from "../../core/session/simulate/index";
import { integerOption, listOption } from "../args";
import { loadAnySession, loadHeader } from "../inputs";
import { CliError, orCliError, type CliIo } from "../io";
import type { CliCommand, CliOptionValues } from "../registry";
import { stringifyWithTexts } from "../../core/text/text";

const NAME = "compact";

function readText(io: CliIo, file: string, what: string): string {
  try {
    return new TextDecoder("utf-8").decode(io.readFile(file));
  } catch (error) {
    throw new CliError(`cannot read ${what} ${file}: ${(error as Error).message}`);
  }
}

/** Captured request bodies from files and folders (folders: every `*.json` but `*.meta.json`). */
function loadCapturedBodies(io: CliIo, sources: string[]): { captured: CapturedBody[]; fromFolder: Set<string> } {
  const captured: CapturedBody[] = [];
  const fromFolder = new Set<string>();
  for (const source of sources) {
    let files = [source];
    let isFolder = false;
    try {
      isFolder = statSync(source).isDirectory();
    } catch {
      throw new CliError(`${NAME}: cannot read --instructions-from ${source}: no such file or folder`);
    }
    if (isFolder) {
      files = readdirSync(source)
        .filter((f) => f.endsWith(".json") && !f.endsWith(".meta.json"))
        .sort()
        .map((f) => path.join(source, f));
    }
    for (const file of files) {
      let body: unknown;
      try {
        body = JSON.parse(readText(io, file, "captured request"));
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(`${NAME}: captured request ${file} is not JSON: ${(error as Error).message}`);
      }
      captured.push({ source: path.basename(file), body });
      if (isFolder) fromFolder.add(path.basename(file));
    }
  }
  return { captured, fromFolder };
}

function parseParam(value: string): [string, string | number | boolean | null] {
  const at = value.indexOf("=");
  if (at <= 0) throw new CliError(`${NAME}: --param must be name=value (got "${value}")`);
  const name = value.slice(0, at);
  const raw = value.slice(at + 1);
  if (raw === "true" || raw === "on") return [name, true];
  if (raw === "false" || raw === "off") return [name, false];
  if (raw === "null") return [name, null];
  if (raw !== "" && !Number.isNaN(Number(raw))) return [name, Number(raw)];
  return [name, raw];
}

function parameters(options: CliOptionValues): PolicyParameters {
  const out: PolicyParameters = {};
  const reserve = integerOption(options, "reserve-tokens", NAME, 0);
  const keep = integerOption(options, "keep-recent-tokens", NAME, 0);
  if (reserve !== undefined) out.reserveTokens = reserve;
  if (keep !== undefined) out.keepRecentTokens = keep;
  if (typeof options["boundary-rule"] === "string") out.boundaryRule = options["boundary-rule"];
  // hermes: on → the fixed variant (CP-HA-24), off → before the PR; "pr" → the PR as written.
  if (typeof options["role-split"] === "string") out.roleSplit = options["role-split"] === "on" ? "fixed" : options["role-split"];
  if (typeof options["spiral-brake"] === "string") out.spiralBrake = options["spiral-brake"] === "on";
  for (const value of listOption(options, "param")) {
    const [name, parsed] = parseParam(value);
    out[name] = parsed;
  }
  return out;
}

function limits(options: CliOptionValues): LimitOverrides {
  const out: LimitOverrides = {};
  const window = integerOption(options, "context-window", NAME);
  const output = integerOption(options, "max-output-tokens", NAME);
  const input = integerOption(options, "input-limit", NAME);
  if (window !== undefined) out.contextWindow = window;
  if (output !== undefined) out.maxOutputTokens = output;
  if (input !== undefined) out.inputLimit = input;
  return out;
}

function summarySource(io: CliIo, options: CliOptionValues): SummarySource | undefined {
  if (typeof options["summary-file"] === "string") return { kind: "text", text: readText(io, options["summary-file"], "summary file") };
  const tokens = integerOption(options, "summary-tokens", NAME);
  if (tokens !== undefined) return { kind: "placeholder", tokens };
  return undefined;
}

async function run(positionals: string[], options: CliOptionValues, io: CliIo): Promise<number> {
  const file = positionals[0]!;
  const policyId = options.policy;
  if (typeof policyId !== "string") throw new CliError(`${NAME}: --policy is required (${POLICY_IDS.join(", ")})`);
  const policy = orCliError(NAME, () => getPolicy(policyId));
  // The policy's own profile (senpi) applies to files whose agent offers it; the others ignore it.
  // Else the session's own (a senpi file: senpi).
  const session = await loadAnySession(io, file, (options.session as string | undefined) ?? null);
  const profile: ProfileId = (options.profile as ProfileId | undefined) ?? policy.pipelineProfile ?? defaultProfileOf(session);
  const pipeline: PipelineOptions = {
    profile,
    leafId: (options.leaf as string | undefined) ?? null,
    api: (options.provider as ApiId | undefined) ?? null,
    header: typeof options.header === "string" ? loadHeader(io, options.header) : null,
  };
  const { captured, fromFolder } = loadCapturedBodies(io, listOption(options, "instructions-from"));
  const readable = captured.filter((c) => policy.readCaptured?.(c.body, c.source) ?? policy.extractInstructions?.(c.body, c.source));
  for (const c of captured) {
    if (!readable.includes(c) && !fromFolder.has(c.source)) throw new CliError(`${NAME}: ${c.source} is not a ${policyId} summariser request`);
  }
  const params = parameters(options);
  const limitOverrides = limits(options);

  const manualCompactions = listOption(options, "manual-compactions").flatMap((v) => v.split(",")).map((v) => {
    const n = Number(v.trim());
    if (!Number.isInteger(n) || n < 1) throw new CliError(`${NAME}: --manual-compactions takes 1-based compaction numbers (got "${v}")`);
    return n;
  });
  // Settings the user did not give are inferred from the recorded compactions (unless
  // --policy-defaults); the ones given are taken as known.
  const inferred = (): SettingsInference => inferSettings(session, pipeline, policy.id, { parameters: params, limits: limitOverrides, api: pipeline.api ?? null, manualCompactions });
  if (options["infer-settings"] === true) {
    const inference = inferred();
    for (const setting of inference.settings) io.stdout(`${stringifyWithTexts({ kind: "setting", ...setting })}\n`);
    const { settings: _settings, ...summary } = inference;
    io.stdout(`${stringifyWithTexts({ kind: "inference", ...summary })}\n`);
    return 0;
  }

  if (options["replay-recorded"] === true) {
    const inference = options["policy-defaults"] === true ? null : inferred();
    const replayParameters = { ...inference?.parameters, ...params };
    const replayLimits = { ...inference?.limits, ...limitOverrides };
    const inferredLimits = (Object.keys(inference?.limits ?? {}) as (keyof LimitOverrides)[]).filter((name) => limitOverrides[name] === undefined);
    const lines = replayRecordedCompactions(session, pipeline, policy.id, { parameters: replayParameters, captured: readable, limits: replayLimits, inferredLimits, api: pipeline.api ?? null });
    const settings = { parameters: replayParameters, limits: replayLimits, inferred: inference ? inference.settings.filter((s) => s.value !== null).map((s) => s.setting) : [] };
    for (const line of lines) io.stdout(`${stringifyWithTexts({ ...line, settings })}\n`);
    return 0;
  }
  if (options["replay-session"] === true) {
    const a = replaySession(session, pipeline, policy.id, { parameters: params, limits: limitOverrides });
    if (typeof options.compare === "string") {
      const other = getPolicy(options.compare);
      // The compared policy runs with its own pipeline profile where it names one (senpi).
      const b = replaySession(session, { ...pipeline, profile: other.pipelineProfile ?? profile }, other.id as PolicyId, { limits: limitOverrides });
      io.stdout(`${stringifyWithTexts({ kind: "comparison", ...comparePolicies(a, b) })}\n`);
    } else {
      io.stdout(`${stringifyWithTexts({ kind: "replay", ...a })}\n`);
    }
    return 0;
  }

  const turn = integerOption(options, "turn", NAME) ?? countTurns(session, pipeline);
  const instructions = readable.length > 0 ? mergeSlotValues(...readable.map((c) => policy.extractInstructions?.(c.body, c.source) ?? null)) : undefined;
  const result = simulateCompaction({
    session,
    options: pipeline,
    turn,
    policyId: policy.id,
    parameters: params,
    limits: limitOverrides,
    summary: summarySource(io, options),
    focus: typeof options.focus === "string" ? options.focus : null,
    instructions,
    manual: options.manual === true,
    followingTurns: integerOption(options, "following-turns", NAME, 0),
    api: pipeline.api ?? null,
  });
  const out = {
    policy: result.policyId,
    turn: result.turn,
    trigger: result.trigger,
    kept: result.partition.kept,
    summarised: result.partition.summarised,
    pruned: result.partition.pruned,
    droppedWithoutSummary: result.partition.droppedWithoutSummary,
    partition: result.partition.details,
    summariserRequest: result.summariserRequests[0]?.body ?? null,
    summariserRequests: result.summariserRequests,
    after: result.after.request?.body ?? null,
    afterDetails: { summary: result.after.summary, prefixBreak: result.after.prefixBreak, followingTurns: result.after.followingTurns, storedRecord: result.after.storedRecord },
    verdict: result.verdict,
    tokens: result.tokens,
    findings: result.findings,
    limits: result.limits,
    parameters: result.parameters,
    inferred: result.inferred,
  };
  io.stdout(`${stringifyWithTexts(out)}\n`);
  return 0;
}

export const compactCommand: CliCommand = {
  name: NAME,
  summary: "simulate compaction at a turn under a policy (pi, senpi, deepseek-harness, …) as one JSON object",
  positionals: ["<session-file>"],
  options: [
    { name: "policy", value: "id", description: `compaction policy: ${POLICY_IDS.join(", ")}` },
    { name: "turn", value: "N", description: "simulate after the response of turn N (default: the last turn)" },
    { name: "summary-file", value: "F", description: "the summary text to use (default: the recorded one at a recorded compaction, else a placeholder)" },
    { name: "summary-tokens", value: "N", description: "size of the placeholder summary in estimated tokens" },
    { name: "focus", value: "T", description: "user focus topic / custom instructions (`/compact T`)" },
    { name: "manual", description: "manual compaction: skip the trigger" },
    { name: "provider", value: "API", description: "wire shape of the requests", choices: API_IDS },
    { name: "header", value: "captured-request.json", description: "captured main request: system prompt, tools and settings come from it" },
    { name: "profile", value: PROFILE_IDS.join("|"), description: "pipeline profile of pi files (default: senpi for the senpi policy, else the session's own)", choices: PROFILE_IDS },
    { name: "leaf", value: "entryId", description: "branch to use (default: the last entry)" },
    { name: "session", value: "id", description: "opencode database: the session to use" },
    { name: "instructions-from", value: "file-or-folder", description: "captured summariser request(s) that fill the instruction slots", multiple: true },
    { name: "replay-recorded", description: "re-run the policy at every recorded compaction: one JSON line each (settings not given are inferred)" },
    { name: "infer-settings", description: "print the settings consistent with the recorded compactions: one JSON line per setting, then a summary line" },
    { name: "policy-defaults", description: "with --replay-recorded: use the policy defaults instead of the inferred settings" },
    { name: "manual-compactions", value: "k,…", description: "recorded compactions (1-based) that were manual, for files that do not say (pi, Codex)", multiple: true },
    { name: "replay-session", description: "run the policy's trigger over every turn; one JSON object" },
    { name: "compare", value: "policy", description: "with --replay-session: compare with a second policy" },
    { name: "reserve-tokens", value: "N", description: "pi/senpi reserveTokens (default 16384)" },
    { name: "keep-recent-tokens", value: "N", description: "pi/senpi keepRecentTokens (default 20000)" },
    { name: "boundary-rule", value: "G1|G2", description: "pi boundary generation (PI-K15)", choices: ["G1", "G2"] },
    { name: "role-split", value: "on|off|pr", description: "hermes: role split of the summariser request", choices: ["on", "off", "pr", "fixed"] },
    { name: "spiral-brake", value: "on|off", description: "opencode: the spiral brake fix", choices: ["on", "off"] },
    { name: "param", value: "name=value", description: "any policy parameter (see docs/compaction-simulator.md)", multiple: true },
    { name: "context-window", value: "N", description: "override the context window" },
    { name: "max-output-tokens", value: "N", description: "override the model's output limit" },
    { name: "input-limit", value: "N", description: "override the input limit" },
    { name: "following-turns", value: "N", description: "how many following turns to rebuild (default all)" },
  ],
  details:
    "Output (one object): trigger, kept, summarised, pruned, droppedWithoutSummary, summariserRequest, summariserRequests, after, verdict, findings, tokens.\n" +
    'With --replay-recorded: one line per recorded compaction {"kind":"compaction","index":k,"keptMatches":…,"summariserRequests":[…],"matches":[…],"settings":{…}}.\n' +
    'With --infer-settings: {"kind":"setting","setting":…,"min":…,"max":…,"value":…,"bounds":[…],"conflict":…} per setting, then {"kind":"inference","consistent":…,"conflicts":[…],"parameters":{…},"limits":{…}}.\n' +
    "A policy inferred from one agent's recordings needs a session of that agent (the error names it); " +
    `--replay-recorded works on ${allAgents().filter((agent) => agent.recorded !== null).map((agent) => agent.label).join(", ")} sessions.`,
  run,
};
