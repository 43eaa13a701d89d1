// A light JSON language for the read-only request view: a Monarch tokenizer (keys vs values,
// numbers, keywords, brackets) and bracket pairs, all on the main thread, tokenized lazily by
// Monaco for the lines on screen. Folding uses indentation, exact for our 2-space pretty-printed
// JSON. Monaco's worker-based JSON language service is deliberately not used: in this Monaco
// version its mode module imports every editor contribution (a 4 MB chunk whose late service
// registration breaks a slim editor), and validation/completion are useless on generated JSON.
import type * as Monaco from "monaco-editor/editor/editor.api";

type MonacoApi = typeof Monaco;

export const JSON_LANGUAGE_ID = "json";

export function registerJsonLanguage(monaco: MonacoApi): void {
  if (monaco.languages.getLanguages().some((language) => language.id === JSON_LANGUAGE_ID)) return;
  monaco.languages.register({ id: JSON_LANGUAGE_ID, extensions: [".json"], aliases: ["JSON"], mimetypes: ["application/json"] });
  monaco.languages.setLanguageConfiguration(JSON_LANGUAGE_ID, {
    brackets: [
      ["{", "}"],
      ["[", "]"],
    ],
    wordPattern: /(-?\d*\.\d\w*)|([^[{\]}:",\s]+)/g,
  });
  monaco.languages.setMonarchTokensProvider(JSON_LANGUAGE_ID, {
    defaultToken: "",
    tokenPostfix: ".json",
    tokenizer: {
      root: [
        [/"(?:[^"\\]|\\.)*"(?=\s*:)/, "string.key"],
        [/"(?:[^"\\]|\\.)*"/, "string.value"],
        [/-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/, "number"],
        [/\b(?:true|false|null)\b/, "keyword"],
        [/[{}]/, "delimiter.bracket"],
        [/[[\]]/, "delimiter.array"],
        [/[,:]/, "delimiter"],
        [/\s+/, ""],
      ],
    },
  });
}
