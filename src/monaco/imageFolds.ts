// Image data in the request view: an image block's base64 `source` (a pasted screenshot, an image
// a tool returned) is folded when a request is shown, so the editor never lays out or renders
// megabytes of base64 text; the fold line keeps `"source": {` visible and unfolding shows the data
// as sent. The fold uses the editor's own fold action (which waits for the folding ranges of the
// new text), with the lines found in the pretty-printed JSON.
import type { monaco as Monaco } from "./setup";

/** Lines (1-based) that open an image block's `source` object holding base64 data. */
function imageSourceLines(model: Monaco.editor.ITextModel): number[] {
  const lines: number[] = [];
  for (const match of model.findMatches('"source": {', false, false, true, null, false)) {
    const line = match.range.startLineNumber;
    const next = line < model.getLineCount() ? model.getLineContent(line + 1) : "";
    if (next.trim() === '"type": "base64",') lines.push(line);
  }
  return lines;
}

/** Folds every image `source` object of the editor's current text. */
export function foldImageData(editor: Monaco.editor.IStandaloneCodeEditor): void {
  const model = editor.getModel();
  if (!model) return;
  const lines = imageSourceLines(model);
  if (lines.length === 0) return;
  // `selectionLines` are 0-based; one level folds the source object itself.
  editor.trigger("contextscope.imageFolds", "editor.fold", { selectionLines: lines.map((line) => line - 1), levels: 1, direction: "down" });
}
