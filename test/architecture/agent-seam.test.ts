// The seam between the framework and the agents: code outside src/core/agents/ reaches an agent
// only through src/core/session/ (which alone reads the registry) and the descriptor's types; it
// never imports from an agent's own folder. So a new agent is its folder and one registry line.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(__dirname, "../../src");
const AGENTS_DIR = path.join(SRC, "core/agents");
const REGISTRY = path.join(AGENTS_DIR, "registry");
const SESSION_DIR = path.join(SRC, "core/session") + path.sep;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(item.name) ? [full] : [];
  });
}

/** The files a source file imports (relative specifiers, resolved, without extension). */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    found.push(path.resolve(path.dirname(file), (match[1] as string).replace(/\.(tsx?|js)$/, "")));
  }
  return found;
}

/** Where `file` breaks the seam, as "file → import". */
function seamBreaks(file: string, text: string): string[] {
  const inAgents = file.startsWith(AGENTS_DIR + path.sep);
  return importsOf(file, text).flatMap((target) => {
    const relative = path.relative(AGENTS_DIR, target);
    const intoAgentFolder = !relative.startsWith("..") && relative.includes(path.sep);
    const broken = (!inAgents && intoAgentFolder) || (target === REGISTRY && !file.startsWith(SESSION_DIR));
    return broken ? [`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`] : [];
  });
}

describe("the seam between the framework and the agents", () => {
  it("the check finds an import of an agent's folder and of the registry", () => {
    const app = path.join(SRC, "app/x.ts");
    expect(seamBreaks(app, `import { piReader } from "../core/agents/pi/reader";`)).toHaveLength(1);
    expect(seamBreaks(app, `import { AGENTS } from "../core/agents/registry";`)).toHaveLength(1);
    expect(seamBreaks(app, `import type { AgentDescriptor } from "../core/agents/descriptor";`)).toHaveLength(0);
    expect(seamBreaks(path.join(SESSION_DIR, "x.ts"), `import { AGENTS } from "../agents/registry";`)).toHaveLength(0);
    expect(seamBreaks(path.join(AGENTS_DIR, "codex/x.ts"), `import { estimate } from "../pi/estimate";`)).toHaveLength(0);
  });

  it("no file outside src/core/agents/ imports an agent's folder, and only src/core/session/ imports the registry", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => seamBreaks(file, readFileSync(file, "utf8")))).toEqual([]);
  });
});
