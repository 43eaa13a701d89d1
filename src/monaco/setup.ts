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
const DARK_THEME = "contextscope-dark";
const LIGHT_THEME = "contextscope-light";
monaco.editor.defineTheme(DARK_THEME, {
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

monaco.editor.defineTheme(LIGHT_THEME, {
  base: "vs",
  inherit: true,
  rules: [
    { token: "string.key.json", foreground: "0451A5" },
    { token: "string.value.json", foreground: "A31515" },
    { token: "number.json", foreground: "098658" },
    { token: "keyword.json", foreground: "0000FF" },
    { token: "delimiter.json", foreground: "555555" },
  ],
  colors: {
    "editor.background": "#ffffff",
    "editor.lineHighlightBackground": "#f2f4f7",
    "editorGutter.background": "#ffffff",
  },
});

/** The editor theme of the page's theme (<html data-theme>, src/page/settings.ts). */
export function currentTheme(): string {
  return document.documentElement.dataset.theme === "light" ? LIGHT_THEME : DARK_THEME;
}

// Monaco has one theme for every editor: follow the page's theme when it changes.
new MutationObserver(() => monaco.editor.setTheme(currentTheme())).observe(document.documentElement, {
  attributes: true,
  attributeFilter: ["data-theme"],
});

export { monaco };
