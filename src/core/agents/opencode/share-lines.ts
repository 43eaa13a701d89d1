// An opencode session as a share payload holds it (src/core/share/session-lines.ts): the session
// header line (`{"agent":"opencode","info":{…},…}`), then one `{info, parts}` record per line.
// Not a file opencode writes: it is how a share link or bundle carries an export, read back into
// the export document's shape so the export reader opens it like the file it came from.

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `{info, messages}` from share lines, or null when the text is not in that form. */
export function exportFromShareLines(text: string): { info: Record<string, unknown>; messages: unknown[] } | null {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const header = parseLine(lines[0] ?? "");
  if (!isObject(header) || header.agent !== "opencode" || !isObject(header.info)) return null;
  // Every later line is kept as parsed; the export reader checks and reports each record.
  return { info: header.info, messages: lines.slice(1).map(parseLine) };
}
