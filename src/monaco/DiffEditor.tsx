// Read-only Monaco diff of the previous turn's request JSON (left) against this turn's (right),
// with the prefix boundary marked on the right: a marker line in the gutter and overview ruler and
// the rest of the request tinted from the first differing position on. One diff editor lives for
// the component's lifetime; each comparison gets a fresh pair of models.
import { useEffect, useRef } from "react";
import { JSON_LANGUAGE_ID } from "./jsonLanguage";
import { LARGE_TEXT } from "./limits";
import { monaco, THEME } from "./setup";

export interface DiffEditorProps {
  previousJson: string;
  currentJson: string;
  /** UTF-16 offset in `currentJson` where the shared prefix ends; null: no boundary to mark. */
  boundaryOffset: number | null;
  /** Hover text of the boundary marker (plain text). */
  boundaryLabel: string;
}

/** Escapes Markdown so a label is shown literally (hover text is rendered as Markdown). */
function plainMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (char) => `\\${char}`);
}

export default function DiffEditor({ previousJson, currentJson, boundaryOffset, boundaryLabel }: DiffEditorProps) {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const decorationsRef = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const editor = monaco.editor.createDiffEditor(container, {
      theme: THEME,
      readOnly: true,
      originalEditable: false,
      domReadOnly: true,
      automaticLayout: true,
      renderSideBySide: true,
      minimap: { enabled: false },
      wordWrap: "off",
      fontSize: 12,
      lineHeight: 18,
      fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
      scrollBeyondLastLine: false,
      contextmenu: true,
      links: false,
      renderValidationDecorations: "off",
      unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false },
      maxComputationTime: 3000,
    });
    editorRef.current = editor;
    decorationsRef.current = editor.getModifiedEditor().createDecorationsCollection();
    return () => {
      const models = editor.getModel();
      editor.dispose();
      models?.original.dispose();
      models?.modified.dispose();
      editorRef.current = null;
      decorationsRef.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    // A new pair of models per comparison: the diff is recomputed from scratch and no stale
    // line mapping of the previous pair survives into the new one.
    let models = editor.getModel();
    if (!models || models.original.getValue() !== previousJson || models.modified.getValue() !== currentJson) {
      const old = models;
      models = {
        original: monaco.editor.createModel(previousJson, JSON_LANGUAGE_ID),
        modified: monaco.editor.createModel(currentJson, JSON_LANGUAGE_ID),
      };
      editor.setModel(models);
      old?.original.dispose();
      old?.modified.dispose();
    }
    const large = currentJson.length > LARGE_TEXT;
    editor.updateOptions({ wordWrap: large ? "off" : "on" });
    if (boundaryOffset === null) {
      decorationsRef.current?.clear();
      return;
    }
    const model = models.modified;
    const start = model.getPositionAt(boundaryOffset);
    const end = model.getPositionAt(currentJson.length);
    const hover = { value: plainMarkdown(boundaryLabel), isTrusted: false, supportHtml: false };
    decorationsRef.current?.set([
      {
        range: new monaco.Range(start.lineNumber, start.column, start.lineNumber, start.column),
        options: {
          beforeContentClassName: "prefix-boundary-marker",
          linesDecorationsClassName: "gutter-prefix-boundary",
          hoverMessage: hover,
          overviewRuler: { color: "#f0a060", position: monaco.editor.OverviewRulerLane.Full },
          stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
        },
      },
      {
        range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
        options: { className: "hl-after-prefix", hoverMessage: hover },
      },
    ]);
    editor.getModifiedEditor().revealPositionInCenter(start);
  }, [previousJson, currentJson, boundaryOffset, boundaryLabel]);

  return <div ref={containerRef} className="request-editor diff-editor" data-testid="diff-editor" />;
}
