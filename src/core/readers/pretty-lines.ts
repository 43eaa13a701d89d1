// A JSONL file that was pretty-printed (each line's object spread over several lines, as `jq .`
// writes it, or the lines gathered into one pretty-printed JSON array) turned back into one JSON
// value per line, so the line readers can read it. Each value keeps the line it starts on, so
// warnings still name a line of the file the user has. Linear in the text: one pass over each
// character, tracking strings and nesting depth only.

/** Receives one top-level value (compact JSON when it parses, else its text as found) and the line it starts on. */
type ValueCallback = (text: string, lineNumber: number) => void;

/**
 * True when the first non-blank line starts a JSON object or array but is not one whole value:
 * the file is JSON spread over lines, not JSONL.
 */
export function looksPrettyPrinted(firstLines: readonly string[]): boolean {
  const first = firstLines.find((line) => line.trim() !== "")?.trim();
  if (first === undefined || (!first.startsWith("{") && !first.startsWith("["))) return false;
  try {
    JSON.parse(first);
    return false;
  } catch {
    return true;
  }
}

/** The value as one line: compact JSON when it parses, else its text with the line breaks turned to spaces. */
function asOneLine(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    // Not valid JSON (a truncated value, hostile nesting): the line reader reports it.
    return text.replace(/[\r\n]+/g, " ");
  }
}

export class PrettyJsonJoiner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Undecided until the first non-blank character: whether the values are the elements of one array. */
  private wrapped: boolean | null = null;
  private pieces: string[] = [];
  private startLine = 0;
  /** A value that is not an object or array runs to the end of its line. */
  private scalar = false;

  push(text: string, lineNumber: number, onValue: ValueCallback): void {
    let start = this.pieces.length > 0 || this.depth > 0 ? 0 : -1;
    for (let at = 0; at < text.length; at++) {
      const c = text[at]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === "\\") this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (this.depth === 0 && !this.scalar) {
        if (c === " " || c === "\t" || c === "\r" || c === "\uFEFF") continue;
        if (this.wrapped === null) {
          this.wrapped = c === "[";
          if (this.wrapped) continue;
        }
        if (this.wrapped && (c === "," || c === "]")) continue;
        start = at;
        this.startLine = lineNumber;
        if (c !== "{" && c !== "[") {
          this.scalar = true;
          break;
        }
      }
      if (c === '"') this.inString = true;
      else if (c === "{" || c === "[") this.depth += 1;
      else if (c === "}" || c === "]") {
        this.depth -= 1;
        if (this.depth === 0) {
          this.pieces.push(text.slice(start, at + 1));
          this.flush(onValue);
          start = -1;
        }
      }
    }
    if (this.scalar) {
      this.pieces.push(text.slice(start));
      this.flush(onValue);
      return;
    }
    if (start >= 0 && (this.depth > 0 || this.inString)) this.pieces.push(text.slice(start));
  }

  /** Hands on a value the file ends inside (a truncated file), as it is. */
  end(onValue: ValueCallback): void {
    if (this.pieces.length > 0) this.flush(onValue);
  }

  private flush(onValue: ValueCallback): void {
    const text = this.pieces.join("\n");
    this.pieces = [];
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.scalar = false;
    if (text.trim() !== "") onValue(asOneLine(text), this.startLine);
  }
}
