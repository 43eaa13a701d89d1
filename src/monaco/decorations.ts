// Maps the worker's text highlights (not-recorded markers, synthesised messages, reply-language
// notes) to Monaco
// decorations: a tinted range, a coloured bar in the gutter, an overview-ruler mark and a hover
// that explains what the range is.
import type { TextHighlight } from "../features/request/protocol";
import { ruleTooltip, withoutRuleIds } from "../ui/ruleIds";
import type { monaco as Monaco } from "./setup";

type MonacoApi = typeof Monaco;

const STYLE: Record<TextHighlight["kind"], { className: string; gutter: string; ruler: string }> = {
  "not-recorded": { className: "hl-not-recorded", gutter: "gutter-not-recorded", ruler: "#d19a66" },
  synthesized: { className: "hl-synthesized", gutter: "gutter-synthesized", ruler: "#61afef" },
  inferred: { className: "hl-inferred", gutter: "gutter-inferred", ruler: "#c678dd" },
  note: { className: "hl-note", gutter: "gutter-note", ruler: "#3fc5b0" },
};

/** Escapes Markdown so a label is shown literally (hover text is rendered as Markdown). */
function plainMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (char) => `\\${char}`);
}

/** The highlight's explanation without rule ids, then (its own paragraph) the rules behind it. */
function hoverText(label: string): string {
  const { text, ruleIds } = withoutRuleIds(label);
  const why = ruleTooltip(ruleIds);
  return why ? `${plainMarkdown(text)}\n\n${plainMarkdown(why)}` : plainMarkdown(text);
}

export function toDecorations(
  monaco: MonacoApi,
  model: Monaco.editor.ITextModel,
  highlights: TextHighlight[],
): Monaco.editor.IModelDeltaDecoration[] {
  return highlights.map((highlight) => {
    const start = model.getPositionAt(highlight.start);
    const end = model.getPositionAt(highlight.end);
    const style = STYLE[highlight.kind];
    return {
      range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
      options: {
        className: style.className,
        linesDecorationsClassName: style.gutter,
        // Plain text hover: session content must never be interpreted (no HTML, no links).
        hoverMessage: { value: hoverText(highlight.label), isTrusted: false, supportHtml: false },
        overviewRuler: { color: style.ruler, position: monaco.editor.OverviewRulerLane.Left },
        stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges,
      },
    };
  });
}
