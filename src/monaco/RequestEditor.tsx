// Read-only Monaco view of one request's JSON with highlight decorations. One editor instance
// and one model live for the component's lifetime; switching turns replaces the model's text
// (fast, no editor re-creation) and keeps folding/scroll state per turn out of the way.
import { useEffect, useRef } from "react";
import type { TextHighlight } from "../features/request/protocol";
import { toDecorations } from "./decorations";
import { JSON_LANGUAGE_ID } from "./jsonLanguage";
import { foldImageData } from "./imageFolds";
import { LARGE_TEXT } from "./limits";
import { currentTheme, monaco } from "./setup";

export interface RequestEditorProps {
  jsonText: string;
  highlights: TextHighlight[];
  /** Changes when a different request is shown, to reset the scroll position. */
  documentKey: string;
  /** Text a search jumped to: its matches are highlighted and the first is scrolled into view. */
  searchText?: string | null;
}

/** The search text as it appears inside a JSON string (quotes, backslashes, newlines escaped). */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export default function RequestEditor({ jsonText, highlights, documentKey, searchText = null }: RequestEditorProps) {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const decorationsRef = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const lastKeyRef = useRef<string | null>(null);
  const lastTextRef = useRef<string | null>(null);
  const searchDecorationsRef = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const model = monaco.editor.createModel("", JSON_LANGUAGE_ID);
    const editor = monaco.editor.create(container, {
      model,
      theme: currentTheme(),
      readOnly: true,
      domReadOnly: true,
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: "on",
      folding: true,
      foldingStrategy: "indentation",
      showFoldingControls: "always",
      fontSize: 12,
      lineHeight: 18,
      fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
      scrollBeyondLastLine: false,
      renderLineHighlight: "line",
      contextmenu: true,
      links: false,
      occurrencesHighlight: "off",
      selectionHighlight: false,
      renderValidationDecorations: "off",
      stickyScroll: { enabled: false },
      unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false },
      lineNumbersMinChars: 4,
      padding: { top: 4 },
    });
    editorRef.current = editor;
    decorationsRef.current = editor.createDecorationsCollection();
    searchDecorationsRef.current = editor.createDecorationsCollection();
    return () => {
      editor.dispose();
      model.dispose();
      editorRef.current = null;
      decorationsRef.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model) return;
    if (lastTextRef.current !== jsonText) {
      lastTextRef.current = jsonText;
      editor.updateOptions({ wordWrap: jsonText.length > LARGE_TEXT ? "off" : "on" });
      model.setValue(jsonText);
      foldImageData(editor);
    }
    decorationsRef.current?.set(toDecorations(monaco, model, highlights));
    if (lastKeyRef.current !== documentKey) {
      lastKeyRef.current = documentKey;
      editor.setScrollTop(0);
    }
  }, [jsonText, highlights, documentKey]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    const container = containerRef.current;
    if (!editor || !model || !container) return;
    const matches = searchText ? model.findMatches(jsonEscaped(searchText), false, false, false, null, false, 1000) : [];
    searchDecorationsRef.current?.set(
      matches.map((match) => ({
        range: match.range,
        options: { inlineClassName: "search-match", overviewRuler: { color: "#e6b450", position: monaco.editor.OverviewRulerLane.Center } },
      })),
    );
    container.dataset.searchMatches = String(matches.length);
    const first = matches[0];
    if (first) {
      editor.revealRangeInCenter(first.range);
      editor.setSelection(first.range);
    }
  }, [searchText, jsonText, documentKey]);

  return <div ref={containerRef} className="request-editor" data-testid="request-editor" />;
}
