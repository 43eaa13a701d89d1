// The Monaco diff editor, code-split like the request editor (loads with the Monaco chunk).
import { lazy, Suspense } from "react";
import type { DiffEditorProps } from "../../monaco/DiffEditor";

const DiffEditor = lazy(() => import("../../monaco/DiffEditor"));

export function LazyDiffEditor(props: DiffEditorProps) {
  return (
    <Suspense fallback={<div className="editor-placeholder muted">Loading editor…</div>}>
      <DiffEditor {...props} />
    </Suspense>
  );
}
