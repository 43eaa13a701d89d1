// Read-only Monaco diff of the previous turn's request JSON (left) against this turn's (right),
// with the prefix boundary marked on the right: a marker line in the gutter and overview ruler and
// the rest of the request tinted from the first differing position on. One diff editor lives for
// the component's lifetime; each comparison gets a fresh pair of models and its own view model,
// which this component owns and disposes (see `DiffModels`): a line above the editor says whether
// the diff is still being computed, how many regions differ, or that no line differs.
import { useEffect, useRef, useState } from "react";
import { JSON_LANGUAGE_ID } from "./jsonLanguage";
import { LARGE_TEXT } from "./limits";
import { currentTheme, monaco } from "./setup";

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

/** Where the line diff of the current pair stands (shown above the editor). */
type DiffState = { kind: "computing" } | { kind: "done"; regions: number } | { kind: "failed" };

const MAX_COMPUTATION_MS = 3000;

/**
 * One comparison: its two text models and the diff view model computing their line diff.
 * Monaco's standalone diff editor never disposes a view model it created itself in `setModel`
 * (its own reference to it is never released), so its diff computation is never cancelled: when
 * the models are replaced and disposed while the editor worker is still about to answer for
 * them, the worker finds no model and Monaco throws "no diff result available" in the page. So
 * the view model is created here and disposed (which cancels its computation) before its models.
 */
interface DiffModels {
  viewModel: monaco.editor.IDiffEditorViewModel;
  previousJson: string;
  currentJson: string;
}

function diffStateText(state: DiffState): string {
  if (state.kind === "computing") return "Comparing the two requests line by line…";
  if (state.kind === "failed") return "The line diff could not be computed; both requests are shown unmarked.";
  if (state.regions === 0) return "No line differs between the two requests.";
  return `${state.regions} changed ${state.regions === 1 ? "region" : "regions"} marked.`;
}

function disposeModels(models: DiffModels | null): void {
  if (!models) return;
  models.viewModel.dispose();
  models.viewModel.model.original.dispose();
  models.viewModel.model.modified.dispose();
}

export default function DiffEditor({ previousJson, currentJson, boundaryOffset, boundaryLabel }: DiffEditorProps) {
  const containerRef = useRef<HTMLDivElement | null>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const decorationsRef = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const modelsRef = useRef<DiffModels | null>(null);
  const [diffState, setDiffState] = useState<DiffState>({ kind: "computing" });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const editor = monaco.editor.createDiffEditor(container, {
      theme: currentTheme(),
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
      maxComputationTime: MAX_COMPUTATION_MS,
    });
    editorRef.current = editor;
    decorationsRef.current = editor.getModifiedEditor().createDecorationsCollection();
    return () => {
      editor.dispose();
      disposeModels(modelsRef.current);
      modelsRef.current = null;
      editorRef.current = null;
      decorationsRef.current = null;
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    // A new pair of models per comparison: the diff is recomputed from scratch and no stale
    // line mapping of the previous pair survives into the new one.
    let current = modelsRef.current;
    if (!current || current.previousJson !== previousJson || current.currentJson !== currentJson) {
      const old = current;
      const viewModel = editor.createViewModel({
        original: monaco.editor.createModel(previousJson, JSON_LANGUAGE_ID),
        modified: monaco.editor.createModel(currentJson, JSON_LANGUAGE_ID),
      });
      current = { viewModel, previousJson, currentJson };
      modelsRef.current = current;
      editor.setModel(viewModel);
      // The old computation is cancelled before its models go away.
      disposeModels(old);
      setDiffState({ kind: "computing" });
      const mine = current;
      void viewModel.waitForDiff().then(() => {
        if (modelsRef.current !== mine) return;
        const changes = editor.getLineChanges();
        if (changes) setDiffState({ kind: "done", regions: changes.length });
      }, () => {
        if (modelsRef.current === mine) setDiffState({ kind: "failed" });
      });
    }
    const models = current.viewModel.model;
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

  return (
    <>
      <div className="diff-status muted" data-testid="diff-status" data-state={diffState.kind}>
        {diffStateText(diffState)}
      </div>
      <div ref={containerRef} className="request-editor diff-editor" data-testid="diff-editor" />
    </>
  );
}
