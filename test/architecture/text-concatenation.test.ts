// A model text may be a stored text (an object referring to bytes, src/core/text), and TypeScript
// accepts an object in `"a" + text`, `${text}` and `String(text)`, which then print
// "[object Object]" (so does `texts.join()`). No code concatenates or templates a value whose type may be a StoredText:
// it asks for the characters first (`textString`), or passes the text on as it is. Checked with
// the compiler's own types over every file of the project (src, test, bench, e2e).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

function mayBeStoredText(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some(mayBeStoredText);
  return (type.getSymbol() ?? type.aliasSymbol)?.getName() === "StoredText";
}

/** `file:line: what` for every `+`, template span and `String(…)` over a value that may be a stored text. */
function textConcatenations(fileNames: readonly string[], options: ts.CompilerOptions, root = ROOT): string[] {
  const program = ts.createProgram(fileNames, options);
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !file.fileName.startsWith(root) || file.fileName.includes("node_modules")) continue;
    const check = (expression: ts.Expression, what: string) => {
      if (!mayBeStoredText(checker.getTypeAtLocation(expression))) return;
      const { line } = file.getLineAndCharacterOfPosition(expression.getStart());
      found.push(`${path.relative(root, file.fileName)}:${line + 1}: ${what} ${expression.getText().slice(0, 80)}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.PlusToken || node.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken)) {
        check(node.left, "+");
        check(node.right, "+");
      } else if (ts.isTemplateSpan(node)) {
        check(node.expression, "${}");
      } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "String" && node.arguments[0]) {
        check(node.arguments[0], "String()");
      } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "join") {
        // `texts.join(…)` prints each stored text as "[object Object]" too.
        const array = checker.getTypeAtLocation(node.expression.expression);
        const element = checker.isArrayType(array) ? checker.getTypeArguments(array as ts.TypeReference)[0] : undefined;
        if (element && mayBeStoredText(element)) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${path.relative(root, file.fileName)}:${line + 1}: join() ${node.expression.expression.getText().slice(0, 80)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe("texts that may be stored are never concatenated as they are", () => {
  it("no `+`, template, String() or join() over a value typed Text or StoredText", { timeout: 120_000 }, () => {
    const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), (file) => ts.sys.readFile(file));
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
    expect(parsed.fileNames.length).toBeGreaterThan(100);
    expect(textConcatenations(parsed.fileNames, parsed.options)).toEqual([]);
  });

  it("finds each of them in a file that has them (a check that can fail)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "text-concatenation-"));
    const file = path.join(dir, "bad.ts");
    const textModule = path.join(ROOT, "src/core/text/text");
    writeFileSync(
      file,
      `import type { Text } from ${JSON.stringify(textModule)};\n` +
        "export function label(text: Text): string[] {\n" +
        '  return ["Text: " + text, `Text: ${text}`, String(text), [text, text].join(" ")];\n' +
        "}\n",
    );
    const found = textConcatenations([file], { strict: true, noEmit: true, skipLibCheck: true }, dir);
    expect(found).toEqual(["bad.ts:3: + text", "bad.ts:3: ${} text", "bad.ts:3: String() text", "bad.ts:3: join() [text, text]"]);
  });
});
