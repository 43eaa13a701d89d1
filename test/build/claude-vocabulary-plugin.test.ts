// The Claude vocabulary module the app's bundles use (scripts/claudeVocabularyPlugin.ts) must be
// the package's module in another form: the same exports with equal values, and so the same
// token counts for the Anthropic estimate.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Tokenizer } from "ai-tokenizer";
import * as packaged from "ai-tokenizer/encoding/claude";
import { claudeVocabularyModule } from "../../scripts/claudeVocabularyPlugin";

const folder = mkdtempSync(path.join(tmpdir(), "claude-vocabulary-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function writtenModule(): Promise<typeof packaged> {
  const file = path.join(folder, "claude.mjs");
  writeFileSync(file, await claudeVocabularyModule());
  return (await import(pathToFileURL(file).href)) as typeof packaged;
}

describe("the Claude vocabulary as JSON", () => {
  it("exports every name of the package's module with an equal value", async () => {
    const written = await writtenModule();
    expect(Object.keys(written).sort()).toEqual(Object.keys(packaged).sort());
    for (const key of Object.keys(packaged) as (keyof typeof packaged)[]) expect(written[key], key).toEqual(packaged[key]);
    expect(written.binaryEncoder[0]?.[0]).toBeInstanceOf(Uint8Array);
    // Key order is what a tokenizer iterating the tables would see.
    expect(Object.keys(written.stringEncoder)).toEqual(Object.keys(packaged.stringEncoder));
  });

  it("gives the same token counts", async () => {
    const written = await writtenModule();
    const fromPackage = new Tokenizer(packaged);
    const fromJson = new Tokenizer(written);
    const texts = ["Hello, world!", "한국어 노트 저장 ✓ — naïve café", "export const value = 42;\n\tfunction f() { return \"\\u0000\"; }", "\uD83D\uDE00 emoji and a lone \uD800 surrogate"];
    for (const text of texts) expect(fromJson.count(text), text).toBe(fromPackage.count(text));
  });
});
