// An assistant line of a Claude Code transcript parsed without its message's content. The summary
// of a transcript reads a call's ids, model, usage and verdict, never what the model wrote, and
// the content (thinking, text, tool inputs) is most of an assistant line's bytes: parsing only
// the rest does a fraction of the work. Only a line laid out as Claude Code writes one is read so;
// any other is left to a whole parse.

type Raw = Record<string, unknown>;

/** A plain value: a string without escapes, a number, true, false or null. */
const PLAIN = String.raw`(?:"[^"\\]*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;
/** Plain top-level fields, then the message's plain fields, up to the opening of its content. */
const UP_TO_CONTENT = new RegExp(String.raw`^\{(?:"[^"\\]*":${PLAIN},)*"message":\{(?:"[^"\\]*":${PLAIN},)*"content":\[`);
/** The message's first field after its content in every version seen. */
const AFTER_CONTENT = ',"stop_reason":';

/**
 * The line's record with `message.content` null, or undefined when the line cannot be read so
 * (then it is parsed whole). The content is cut from its opening bracket to the message's
 * `stop_reason`, found from the end of the line. When that is not where the content ends, the
 * cut leaves brackets unbalanced and the parse fails, or it would drop a field a summary reads,
 * which is looked for in the cut: either way the line is left to a whole parse.
 */
export function assistantRecordWithoutContent(line: string): Raw | undefined {
  const head = UP_TO_CONTENT.exec(line);
  if (!head) return undefined;
  const contentAt = head[0].length - 1;
  const afterAt = line.lastIndexOf(AFTER_CONTENT);
  if (afterAt <= contentAt) return undefined;
  const cut = line.slice(contentAt, afterAt);
  if (cut.includes('"usage":') || cut.includes('"diagnostics":')) return undefined;
  let record: unknown;
  try {
    record = JSON.parse(`${line.slice(0, contentAt)}null${line.slice(afterAt)}`);
  } catch {
    return undefined;
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) return undefined;
  const message = (record as Raw).message as Raw;
  // Fields a summary reads that a layout of its own might have put inside the cut.
  if (typeof message.id !== "string" || typeof message.model !== "string" || typeof message.role !== "string") return undefined;
  return record as Raw;
}
