// Read-only Monaco view of one request's JSON with highlight decorations. One editor instance
// and one model live for the component's lifetime; switching turns replaces the model's text
// (fast, no editor re-creation) and keeps folding/scroll state per turn out of the way.
import { useEffect, useRef } from "react";
import type { TextHighlight } from "../worker/protocol";
import { toDecorations } from "./decorations";
import { JSON_LANGUAGE_ID } from "./jsonLanguage";
import { foldImageData } from "./imageFolds";
import { LARGE_TEXT } from "./limits";
import { monaco, THEME } from "./setup";

export interface RequestEditorProps {
  jsonText: string;
  highlights: TextHighlight[];
  /** Changes when a different request is shown, to reset the scroll position. */
  documentKey: string;
}

export default function RequestEditor({ jsonText, highlights, documentKey }: RequestEditorProps) {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const decorationsRef = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const lastKeyRef = useRef<string | null>(null);
  const lastTextRef = useRef<string | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const model = monaco.editor.createModel("", JSON_LANGUAGE_ID);
    const editor = monaco.editor.create(container, {
      model,
      theme: THEME,
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

  return <div ref={containerRef} className="request-editor" data-testid="request-editor" />;
}
