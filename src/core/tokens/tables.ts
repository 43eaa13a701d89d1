// The tokenizer tables (o200k_base, the Claude vocabulary), loaded only when a counter needs them.
// Evaluating them costs hundreds of milliseconds of start-up (and megabytes), which a run that
// only estimates (chars/4) should not pay. Hosts (the CLI, the worker) await loadTokenizerTables()
// with what tablesFor() names before they analyse; the counters then count synchronously. A
// counter asked to count before its table is loaded throws TokenizerTablesNotLoaded, naming it.
// Dynamic imports keep the tables in chunks of their own in every bundle (esbuild, vite).
import type { ApiId } from "../model";

export type TokenizerTable = "o200k" | "claude";

/** What the counters and the token view use of the o200k_base tokenizer (o200kTable.ts). */
export interface O200kEncoding {
  /** Tokens of `text`; special-token strings count as text. */
  count(text: string): number;
  encode(text: string): number[];
  decode(tokens: number[]): string;
}

/** What the Claude estimate uses of ai-tokenizer's tokenizer. */
export interface VocabularyCounter {
  count(text: string): number;
}

/** Raised by a counter whose table has not been loaded (a host forgot loadTokenizerTables). */
export class TokenizerTablesNotLoaded extends Error {
  constructor(readonly table: TokenizerTable) {
    super(`the ${table} tokenizer table is not loaded (await loadTokenizerTables(["${table}"]) before counting)`);
    this.name = "TokenizerTablesNotLoaded";
  }
}

let o200k: O200kEncoding | null = null;
let claude: VocabularyCounter | null = null;
const loading = new Map<TokenizerTable, Promise<void>>();

async function load(table: TokenizerTable): Promise<void> {
  if (table === "o200k") {
    const { loadO200kTokenizer } = await import("./o200kTable");
    o200k = await loadO200kTokenizer();
    return;
  }
  const [{ Tokenizer }, encoding, { withLongPieces }] = await Promise.all([import("ai-tokenizer"), import("ai-tokenizer/encoding/claude"), import("./long-pieces")]);
  // A long run of one character is one piece, which the library merges in quadratic time.
  // Special-token strings (`<EOT>`, …) are counted as text, as o200k's are: the library refuses a
  // text holding one, and a session may quote them.
  claude = withLongPieces(new Tokenizer({ ...encoding, special_tokens: {} }), { pattern: encoding.pat_str, stringEncoder: encoding.stringEncoder, binaryEncoder: encoding.binaryEncoder });
}

/** Loads `tables` (each once; concurrent callers share the load). */
export async function loadTokenizerTables(tables: Iterable<TokenizerTable>): Promise<void> {
  const pending: Promise<void>[] = [];
  for (const table of new Set(tables)) {
    if (isTableLoaded(table)) continue;
    let promise = loading.get(table);
    if (!promise) {
      promise = load(table);
      promise.catch(() => loading.delete(table));
      loading.set(table, promise);
    }
    pending.push(promise);
  }
  await Promise.all(pending);
}

export function isTableLoaded(table: TokenizerTable): boolean {
  return (table === "o200k" ? o200k : claude) !== null;
}

/** The o200k_base encoding; throws TokenizerTablesNotLoaded before it is loaded. */
export function o200kEncoding(): O200kEncoding {
  if (!o200k) throw new TokenizerTablesNotLoaded("o200k");
  return o200k;
}

/** The Claude vocabulary's tokenizer; throws TokenizerTablesNotLoaded before it is loaded. */
export function claudeVocabulary(): VocabularyCounter {
  if (!claude) throw new TokenizerTablesNotLoaded("claude");
  return claude;
}

/**
 * The tables the counters of `choice` need for requests of `apis` (every shape when not given),
 * mirroring counterForApi: "estimate" needs none; OpenAI shapes count o200k; Anthropic's "auto"
 * (no claudeFactor) is the Claude estimate; everything else is o200k-based.
 */
export function tablesFor(choice: "auto" | "estimate" | "o200k", apis?: Iterable<ApiId>, claudeFactor?: number): TokenizerTable[] {
  if (choice === "estimate") return [];
  if (!apis) return choice === "auto" && claudeFactor === undefined ? ["o200k", "claude"] : ["o200k"];
  const tables = new Set<TokenizerTable>();
  for (const api of apis) {
    const isOpenAi = api === "openai-completions" || api === "openai-responses";
    if (!isOpenAi && choice === "auto" && api === "anthropic-messages" && claudeFactor === undefined) tables.add("claude");
    else tables.add("o200k");
  }
  return [...tables];
}
