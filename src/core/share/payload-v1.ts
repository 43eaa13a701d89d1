// Share payload version 1: its types and its strict validator. The validator accepts exactly the
// documented shape (docs/share-format.md): unknown keys and ill-typed values are rejected with the
// path of the offending field, and the result is a fresh object holding only validated data.
import { API_IDS, type ApiId, type CaptureFact, type ProfileId, type RequestHeader, type ToolDefinition } from "../model";
import { fail } from "./errors";
import { copyJsonValue } from "./safe-json";
import { isObject } from "../util/is-object";
import { PROFILE_IDS } from "../session/agents";

export const SHARE_V1 = 1;

/** Profiles a v1 payload may name: every profile an agent offers. */
const SHARE_PROFILE_IDS: readonly ProfileId[] = PROFILE_IDS;

/** The session part: the file's lines, whole (`full`) or cut to one branch (`branch`). */
export interface ShareSessionV1 {
  fileName: string;
  /** Reader registry id to read `lines` with (e.g. "pi"). */
  formatId: string;
  scope: "full" | "branch";
  /** One JSON text per line, header first (see session-lines.ts). */
  lines: string[];
}

/** Compaction simulator settings: a flat object of named scalars (reserveTokens, …). */
export type ShareSimulation = Record<string, string | number | boolean | null>;

/** The view state that reopens the same screen. */
export interface ShareViewV1 {
  /** Selected turn (1-based), null when no turn was selected. */
  turn: number | null;
  /** Centre tab id ("request", "messages", "diff", "tokens", …). */
  tab: string;
  profile: ProfileId;
  /** Provider shape the request was shown in; null: as recorded. */
  provider: ApiId | null;
  /** senpi reply-language notes switch. */
  notes: boolean;
  /** Selected branch leaf; null: the default branch. */
  leafId: string | null;
  /** Compaction simulation settings in force, when the simulator was open. */
  simulation?: ShareSimulation | null;
  /** Request header (system prompt, tools) the user had attached; it is not in the session file. */
  header?: RequestHeader | null;
  /** Summariser instruction texts taken from captured compaction requests the user had attached. */
  instructions?: ShareInstructions | null;
}

/** Summariser instruction slots filled from attached captures, and the files they came from. */
interface ShareInstructions {
  summarizationSystemPrompt?: string;
  initialPrompt?: string;
  updatePrompt?: string;
  turnPrefixPrompt?: string;
  sources?: string[];
}

const INSTRUCTION_SLOTS = ["summarizationSystemPrompt", "initialPrompt", "updatePrompt", "turnPrefixPrompt"] as const;

export interface SharePayloadV1 {
  v: 1;
  session: ShareSessionV1;
  view: ShareViewV1;
}

// ---------------------------------------------------------------------------------------------

const ID_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
const SIMULATION_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_FILE_NAME = 1024;
const MAX_LEAF_ID = 256;
const MAX_SIMULATION_KEYS = 64;
const MAX_TURN = 10_000_000;

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length > 40 ? "a string" : JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function invalid(path: string, expected: string, value: unknown): never {
  fail("invalid-payload", `${path}: expected ${expected}, got ${describe(value)}`);
}

/** Checks an object's keys: all required present, none outside `required ∪ optional`. */
function expectShape(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Record<string, unknown> {
  if (!isObject(value)) invalid(path, "an object", value);
  for (const key of Object.keys(value)) {
    if (!required.includes(key) && !optional.includes(key)) fail("invalid-payload", `${path}: unknown field ${JSON.stringify(key)}`);
  }
  for (const key of required) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) fail("invalid-payload", `${path}: missing field ${JSON.stringify(key)}`);
  }
  return value;
}

function expectString(value: unknown, path: string, maxLength = Infinity): string {
  if (typeof value !== "string") invalid(path, "a string", value);
  if (value.length > maxLength) fail("invalid-payload", `${path}: longer than ${maxLength} characters`);
  return value;
}

function expectId(value: unknown, path: string): string {
  if (typeof value !== "string" || !ID_PATTERN.test(value)) invalid(path, "an id (lowercase letters, digits, dashes)", value);
  return value;
}

function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") invalid(path, "true or false", value);
  return value;
}

function expectOneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) invalid(path, `one of ${allowed.join(", ")}`, value);
  return value as T;
}

function validateSession(value: unknown): ShareSessionV1 {
  const session = expectShape(value, "session", ["fileName", "formatId", "scope", "lines"]);
  const lines = session.lines;
  if (!Array.isArray(lines)) invalid("session.lines", "an array of strings", lines);
  const copied: string[] = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line: unknown = lines[i];
    if (typeof line !== "string") invalid(`session.lines[${i}]`, "a string", line);
    copied[i] = line;
  }
  return {
    fileName: expectString(session.fileName, "session.fileName", MAX_FILE_NAME),
    formatId: expectId(session.formatId, "session.formatId"),
    scope: expectOneOf(session.scope, "session.scope", ["full", "branch"] as const),
    lines: copied,
  };
}

function validateSimulation(value: unknown): ShareSimulation | null {
  if (value === null) return null;
  if (!isObject(value)) invalid("view.simulation", "an object or null", value);
  const keys = Object.keys(value);
  if (keys.length > MAX_SIMULATION_KEYS) fail("invalid-payload", `view.simulation: more than ${MAX_SIMULATION_KEYS} settings`);
  const out: ShareSimulation = {};
  for (const key of keys) {
    if (!SIMULATION_KEY.test(key) || key === "constructor" || key === "prototype") {
      fail("invalid-payload", `view.simulation: setting name ${JSON.stringify(key)} is not allowed`);
    }
    const item = value[key];
    const ok = item === null || typeof item === "string" || typeof item === "boolean" || (typeof item === "number" && Number.isFinite(item));
    if (!ok) invalid(`view.simulation.${key}`, "a string, finite number, boolean or null", item);
    out[key] = item as string | number | boolean | null;
  }
  return out;
}

function validateTool(value: unknown, path: string): ToolDefinition {
  const tool = expectShape(value, path, ["name", "description", "parameters"]);
  return {
    name: expectString(tool.name, `${path}.name`),
    description: expectString(tool.description, `${path}.description`),
    parameters: copyJsonValue(tool.parameters, `${path}.parameters`),
  };
}

function validateFact(value: unknown, path: string): CaptureFact {
  const fact = expectShape(value, path, ["key", "kind", "label", "path", "value", "source"]);
  return {
    key: expectString(fact.key, `${path}.key`),
    kind: expectOneOf(fact.kind, `${path}.kind`, ["session", "model"] as const),
    label: expectString(fact.label, `${path}.label`),
    path: expectString(fact.path, `${path}.path`),
    value: copyJsonValue(fact.value, `${path}.value`),
    source: expectString(fact.source, `${path}.source`, MAX_FILE_NAME),
  };
}

function validateHeader(value: unknown): RequestHeader | null {
  if (value === null) return null;
  // Every field of RequestHeader; a header attached from a capture holds its model and facts.
  const header = expectShape(value, "view.header", ["api", "extraSettings", "source"], ["systemPrompt", "tools", "maxTokens", "model", "facts"]);
  const out: RequestHeader = {
    api: expectOneOf(header.api, "view.header.api", API_IDS),
    extraSettings: {},
    source: expectString(header.source, "view.header.source", MAX_FILE_NAME),
  };
  if (header.systemPrompt !== undefined) out.systemPrompt = expectString(header.systemPrompt, "view.header.systemPrompt");
  if (header.tools !== undefined) {
    if (!Array.isArray(header.tools)) invalid("view.header.tools", "an array", header.tools);
    out.tools = header.tools.map((tool, index) => validateTool(tool, `view.header.tools[${index}]`));
  }
  if (header.maxTokens !== undefined) {
    if (typeof header.maxTokens !== "number" || !Number.isFinite(header.maxTokens)) invalid("view.header.maxTokens", "a finite number", header.maxTokens);
    out.maxTokens = header.maxTokens;
  }
  if (header.model !== undefined) out.model = expectString(header.model, "view.header.model", MAX_FILE_NAME);
  if (header.facts !== undefined) {
    if (!Array.isArray(header.facts)) invalid("view.header.facts", "an array", header.facts);
    out.facts = header.facts.map((fact, index) => validateFact(fact, `view.header.facts[${index}]`));
  }
  if (!isObject(header.extraSettings)) invalid("view.header.extraSettings", "an object", header.extraSettings);
  out.extraSettings = copyJsonValue(header.extraSettings, "view.header.extraSettings") as Record<string, unknown>;
  return out;
}

function validateInstructions(value: unknown): ShareInstructions | null {
  if (value === null) return null;
  const instructions = expectShape(value, "view.instructions", [], [...INSTRUCTION_SLOTS, "sources"]);
  const out: ShareInstructions = {};
  for (const slot of INSTRUCTION_SLOTS) {
    if (instructions[slot] !== undefined) out[slot] = expectString(instructions[slot], `view.instructions.${slot}`);
  }
  if (instructions.sources !== undefined) {
    if (!Array.isArray(instructions.sources)) invalid("view.instructions.sources", "an array", instructions.sources);
    out.sources = instructions.sources.map((source, index) => expectString(source, `view.instructions.sources[${index}]`, MAX_FILE_NAME));
  }
  return out;
}

function validateView(value: unknown): ShareViewV1 {
  const view = expectShape(value, "view", ["turn", "tab", "profile", "provider", "notes", "leafId"], ["simulation", "header", "instructions"]);
  const turn = view.turn;
  if (turn !== null && !(typeof turn === "number" && Number.isInteger(turn) && turn >= 1 && turn <= MAX_TURN)) {
    invalid("view.turn", "a turn number (integer from 1) or null", turn);
  }
  const out: ShareViewV1 = {
    turn: turn as number | null,
    tab: expectId(view.tab, "view.tab"),
    profile: expectOneOf(view.profile, "view.profile", SHARE_PROFILE_IDS),
    provider: view.provider === null ? null : expectOneOf(view.provider, "view.provider", API_IDS),
    notes: expectBoolean(view.notes, "view.notes"),
    leafId: view.leafId === null ? null : expectString(view.leafId, "view.leafId", MAX_LEAF_ID),
  };
  if (view.simulation !== undefined) out.simulation = validateSimulation(view.simulation);
  if (view.header !== undefined) out.header = validateHeader(view.header);
  if (view.instructions !== undefined) out.instructions = validateInstructions(view.instructions);
  return out;
}

/** Validates a parsed v1 payload; throws ShareDecodeFailure("invalid-payload") naming the field. */
export function validatePayloadV1(value: unknown): SharePayloadV1 {
  const payload = expectShape(value, "payload", ["v", "session", "view"]);
  if (payload.v !== SHARE_V1) invalid("payload.v", "1", payload.v);
  return { v: SHARE_V1, session: validateSession(payload.session), view: validateView(payload.view) };
}
