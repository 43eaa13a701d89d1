// Slim, local Monaco: the editor API plus only the contributions the read-only request view uses
// (folding, find, hover for decoration explanations, context menu and clipboard, go to line,
// bracket matching) and a light JSON language (jsonLanguage.ts). The editor worker is bundled by
// Vite (`?worker`), so nothing is fetched from another origin and the page's CSP holds. Imported
// only from the lazily loaded editor chunk, never at startup.
import * as monaco from "monaco-editor/editor/editor.api";
import "monaco-editor/features/folding/register";
import "monaco-editor/features/find/register";
import "monaco-editor/features/hover/register";
import "monaco-editor/features/contextmenu/register";
import "monaco-editor/features/clipboard/register";
import "monaco-editor/features/gotoLine/register";
import "monaco-editor/features/bracketMatching/register";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";
import { registerJsonLanguage } from "./jsonLanguage";

self.MonacoEnvironment = {
  getWorker(): Worker {
    return new EditorWorker();
  },
};

registerJsonLanguage(monaco);
export const THEME = "contextscope-dark";
monaco.editor.defineTheme(THEME, {
  base: "vs-dark",
  inherit: true,
  rules: [
    { token: "string.key.json", foreground: "9CDCFE" },
    { token: "string.value.json", foreground: "CE9178" },
    { token: "number.json", foreground: "B5CEA8" },
    { token: "keyword.json", foreground: "569CD6" },
    { token: "delimiter.json", foreground: "808080" },
  ],
  colors: {
    "editor.background": "#16191f",
    "editor.lineHighlightBackground": "#1f232b",
    "editorGutter.background": "#16191f",
  },
});

export { monaco };
