// The folder tree of Qwen Code's startup reminder, brought up to date for a later process
// (docs/formats/qwen-code.md): every process (one per prompt in headless mode) lists the working
// directory as it finds it at start-up (`getFolderStructure`), so a file the session wrote in its
// top level appears in the reminders of the processes after it. The reminder learnt from a capture
// lists the directory of the captured process; files the chat file says were written since are
// added here, in the listing's order (files before folders, names compared without case). Only
// files written straight into the working directory are added, and only while the listing is not
// cut at its item limit; files made or removed by shell commands are not in the chat file.
const BRANCH = "├───";
const LAST = "└───";
const ITEM_LIMIT = /Showing up to (\d+) items/;

interface Top {
  name: string;
  /** The lines of its children, as written. */
  children: string[];
}

function topLevel(lines: readonly string[], from: number, to: number): Top[] | null {
  const tops: Top[] = [];
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (line.startsWith(BRANCH) || line.startsWith(LAST)) tops.push({ name: line.slice(BRANCH.length), children: [] });
    else if (tops.length > 0) tops[tops.length - 1]!.children.push(line);
    else return null;
  }
  return tops;
}

function isFolder(top: Top): boolean {
  return top.name.endsWith("/");
}

/** Where a new top-level file goes: after the files whose names sort before it, before every folder. */
function insertAt(tops: readonly Top[], name: string): number {
  const key = name.toLowerCase();
  let at = 0;
  while (at < tops.length && !isFolder(tops[at]!) && tops[at]!.name.toLowerCase() < key) at++;
  return at;
}

function render(tops: readonly Top[]): string[] {
  return tops.flatMap((top, i) => {
    const last = i === tops.length - 1;
    // The children of the last entry are indented with spaces, the others with a bar.
    const children = top.children.map((line) => (last ? line.replace(/^│ {3}/, "    ") : line.replace(/^ {4}/, "│   ")));
    return [`${last ? LAST : BRANCH}${top.name}`, ...children];
  });
}

/** The reminder `text` with the top-level files among `written` (absolute paths) that it does not list. */
export function withWrittenFiles(text: string, cwd: string | null, written: readonly string[]): string {
  if (cwd === null || written.length === 0) return text;
  const root = `${cwd.replace(/\/$/, "")}/`;
  const names = written.filter((file) => file.startsWith(root) && !file.slice(root.length).includes("/")).map((file) => file.slice(root.length));
  if (names.length === 0) return text;
  const lines = text.split("\n");
  const rootLine = lines.indexOf(root);
  const end = lines.findIndex((line, i) => i > rootLine && line.startsWith("</system-reminder>"));
  const limit = ITEM_LIMIT.exec(text);
  if (rootLine < 0 || end < 0 || !limit) return text;
  const tops = topLevel(lines, rootLine + 1, end);
  if (!tops) return text;
  let items = lines.slice(rootLine + 1, end).length;
  for (const name of names) {
    if (tops.some((top) => top.name === name)) continue;
    if (items + 1 > Number(limit[1])) return text;
    tops.splice(insertAt(tops, name), 0, { name, children: [] });
    items += 1;
  }
  return [...lines.slice(0, rootLine + 1), ...render(tops), ...lines.slice(end)].join("\n");
}
