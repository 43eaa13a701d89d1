// The Monaco editor is code-split: its chunk loads after the first paint, behind a placeholder.
import { lazy, Suspense } from "react";
import type { RequestEditorProps } from "../../monaco/RequestEditor";

const RequestEditor = lazy(() => import("../../monaco/RequestEditor"));

export function LazyRequestEditor(props: RequestEditorProps) {
  return (
    <Suspense fallback={<div className="editor-placeholder muted">Loading editor…</div>}>
      <RequestEditor {...props} />
    </Suspense>
  );
}
