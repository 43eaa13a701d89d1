// Every shortcut the app's panel lists is in docs/shortcuts.md, with its description.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHORTCUTS } from "../../src/page/shortcuts";

const doc = readFileSync(path.resolve(__dirname, "../../docs/shortcuts.md"), "utf8");

describe("docs/shortcuts.md", () => {
  it.each(SHORTCUTS.map((s) => [s.keys.join(" / "), s] as const))("lists %s", (_name, shortcut) => {
    const row = doc.split("\n").find((line) => line.startsWith("|") && shortcut.keys.every((key) => line.includes(`\`${key}\``)));
    expect(row, `a table row naming ${shortcut.keys.join(", ")}`).toBeDefined();
    expect(row).toContain(shortcut.what.split(" (")[0]!);
  });
});
