// A Vite plugin that ships ai-tokenizer's Claude vocabulary (the Anthropic estimate's tables) as
// JSON text parsed at load, instead of the package's JavaScript object literals. Chromium takes
// about 1.8 s to evaluate the package's module (65,000-key object literals; measured in headless
// Chromium on this project's 2-core machine), and the worker that loads it answers nothing
// meanwhile; JSON.parse of the same data takes about 50 ms. Node evaluates the package's module
// quickly (under 0.2 s with the tokenizer), so the CLI's bundle keeps it as it is. The module the
// plugin writes exports the same names with equal values (test/build/claude-vocabulary-plugin.test.ts).
import type { Plugin } from "vite";

/** The import the core makes (src/core/tokens/tables.ts) and the id of the module written for it. */
const SPECIFIER = "ai-tokenizer/encoding/claude";
const MODULE_ID = "\0claude-vocabulary";

interface ClaudeEncoding {
  name: string;
  pat_str: string;
  special_tokens: Record<string, number>;
  stringEncoder: Record<string, number>;
  binaryEncoder: [Uint8Array, number][];
  /** A token's text, or its bytes when they are not valid UTF-8. */
  decoder: Record<number, string | Uint8Array>;
}

/** `JSON.parse("…")` of `value`, as JavaScript source. */
function parsedJson(value: unknown): string {
  return `JSON.parse(${JSON.stringify(JSON.stringify(value))})`;
}

/**
 * A record of strings and numbers as JSON text, and its byte-array values (JSON has none) as a
 * list of [key, bytes] set back at load. Any other kind of value fails the build: the package's
 * format changed, and this module must change with it.
 */
function recordWithBytes(name: string, record: Record<string, unknown>): string {
  const plain: Record<string, unknown> = {};
  const bytes: [string, number[]][] = [];
  for (const [key, value] of Object.entries(record)) {
    if (value instanceof Uint8Array) bytes.push([key, Array.from(value)]);
    else if (typeof value === "string" || typeof value === "number") plain[key] = value;
    else throw new Error(`claude vocabulary: ${name}[${key}] is neither a string, a number nor bytes`);
  }
  return [
    `const ${name} = ${parsedJson(plain)};`,
    `for (const [key, bytes] of ${parsedJson(bytes)}) ${name}[key] = new Uint8Array(bytes);`,
    `export { ${name} };`,
  ].join("\n");
}

/** The module's source: every export of the package's module, the large ones as JSON text. */
export async function claudeVocabularyModule(): Promise<string> {
  const encoding = (await import(SPECIFIER)) as ClaudeEncoding;
  const binary = encoding.binaryEncoder.map(([bytes, rank]) => [Array.from(bytes), rank]);
  return [
    `export const name = ${JSON.stringify(encoding.name)};`,
    `export const pat_str = ${JSON.stringify(encoding.pat_str)};`,
    recordWithBytes("special_tokens", encoding.special_tokens),
    recordWithBytes("stringEncoder", encoding.stringEncoder),
    `export const binaryEncoder = ${parsedJson(binary)}.map(([bytes, rank]) => [new Uint8Array(bytes), rank]);`,
    recordWithBytes("decoder", encoding.decoder),
    "",
  ].join("\n");
}

export function claudeVocabularyAsJson(): Plugin {
  return {
    name: "contextscope:claude-vocabulary-as-json",
    enforce: "pre",
    // The filters let the bundler call the hooks for these two ids only.
    resolveId: {
      filter: { id: new RegExp(`^${SPECIFIER}$`) },
      handler: (source) => (source === SPECIFIER ? MODULE_ID : null),
    },
    load: {
      filter: { id: new RegExp(`^${MODULE_ID}$`) },
      handler: (id) => (id === MODULE_ID ? claudeVocabularyModule() : null),
    },
  };
}
