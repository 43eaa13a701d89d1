// Compaction policies stay readable as trigger → partition → summarise → after → verdict: no
// function in an agent's policy folder or in the simulator's framework folder (src/core/simulate/)
// is longer than 100 lines, counted from the declaration's first line to its last. Parsed with the
// TypeScript compiler (syntax only), so a function, a method, an accessor, a constructor, a
// function expression and an arrow function all count, nested ones on their own.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const MAX_LINES = 100;

/** The folders checked: every agent's `policy/`, pi's `policies/` and `compaction/`, and the framework. */
function policyFolders(): string[] {
  const agents = path.join(ROOT, "src/core/agents");
  const folders = [path.join(ROOT, "src/core/simulate"), path.join(agents, "pi/policies"), path.join(agents, "pi/compaction")];
  for (const agent of readdirSync(agents)) {
    const folder = path.join(agents, agent, "policy");
    if (statSync(path.join(agents, agent)).isDirectory() && existsDir(folder)) folders.push(folder);
  }
  return folders;
}

function existsDir(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) files.push(...sourceFiles(full));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) files.push(full);
  }
  return files;
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  );
}

function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return "(anonymous)";
}

/** `file:line name (N lines)` for every function of the text longer than `max` lines. */
function longFunctions(fileName: string, text: string, max = MAX_LINES): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > max) found.push(`${path.relative(ROOT, fileName)}:${first + 1} ${functionName(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("compaction policy functions stay short", () => {
  it("the counter finds a long function, a long arrow and a long method", () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const text = `function big() {\n${body}\n}\nconst arrow = () => {\n${body}\n};\nclass C { method() {\n${body}\n} }\nfunction small() {\n  return 1;\n}\n`;
    const found = longFunctions(path.join(ROOT, "probe.ts"), text);
    expect(found).toEqual([`probe.ts:1 big (${MAX_LINES + 2} lines)`, `probe.ts:${MAX_LINES + 3} arrow (${MAX_LINES + 2} lines)`, `probe.ts:${2 * MAX_LINES + 5} method (${MAX_LINES + 2} lines)`]);
  });

  it(`no function, method or arrow function in the policy folders is over ${MAX_LINES} lines`, () => {
    const folders = policyFolders();
    expect(folders.length).toBeGreaterThanOrEqual(9);
    const files = folders.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((file) => longFunctions(file, readFileSync(file, "utf8")))).toEqual([]);
  });
});
