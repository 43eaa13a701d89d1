// The first input item Codex sends: a developer message holding the base instructions
// (FM-CX-10). Its text derives from `session_meta.base_instructions.text`, minus the sections
// tied to a tool that is not enabled — in the recorded version (0.171.0, `codex exec`) the
// `## Planning` section (with its examples) and the `## \`update_plan\`` section. [INF: which
// sections are tool-bound is read from the fixture; configurable, default strips both.]

/** Section titles removed when the plan tool is not enabled (FM-CX-10). */
const PLAN_TOOL_SECTION_TITLES: readonly string[] = ["Planning", "`update_plan`"];

const HEADING = /^(#{1,6}) (.*)$/gm;

/**
 * Removes each Markdown section whose heading title is in `titles`: from the heading line to the
 * next heading of the same or a higher level (or the end of the text), character for character.
 */
export function removeSections(text: string, titles: readonly string[]): string {
  const headings: { start: number; level: number; title: string }[] = [];
  for (const match of text.matchAll(HEADING)) {
    headings.push({ start: match.index ?? 0, level: (match[1] as string).length, title: match[2] as string });
  }
  const cuts: [number, number][] = [];
  headings.forEach((heading, k) => {
    if (!titles.includes(heading.title)) return;
    let end = text.length;
    for (const next of headings.slice(k + 1)) {
      if (next.level <= heading.level) {
        end = next.start;
        break;
      }
    }
    cuts.push([heading.start, end]);
  });
  if (cuts.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [start, end] of cuts) {
    if (start < at) continue;
    out += text.slice(at, start);
    at = end;
  }
  return out + text.slice(at);
}

export interface BaseInstructionsOptions {
  /** FM-CX-10 [INF]: remove the plan-tool sections before sending (default true). */
  stripPlanToolSections?: boolean;
}

/** The text Codex sends as `input[0]` for the stored base instructions. */
export function sentBaseInstructions(stored: string, options: BaseInstructionsOptions = {}): string {
  return options.stripPlanToolSections === false ? stored : removeSections(stored, PLAN_TOOL_SECTION_TITLES);
}
