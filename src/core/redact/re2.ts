// Translates a Go RE2 expression (as gitleaks writes its rules) into a JavaScript RegExp source.
// The two dialects agree on most syntax; what differs is handled here:
// - inline flags — `(?i)` for the rest of a group, `(?i:…)`, `(?-i:…)`, `(?s:…)` — which the
//   JavaScript of Node 20 and older browsers does not accept: case-insensitive parts are spelt out
//   (`a` → `[aA]`, `[a-f]` → `[a-fA-F]`), `.` under `s` becomes `[\s\S]`;
// - `(?P<name>…)` → `(?<name>…)`, `\z` → `$`, `\A` → `^`, `\x{41}` → `\x41`;
// - POSIX classes inside brackets (`[[:alnum:]]`), and a `]` first in a class (a literal in RE2).
// Anything else RE2-only (`\Q…\E`, `\p{…}`, `\C`) is refused with a reason, so the caller counts
// the rule as not translated instead of running a different expression.

export type Re2Translation = { source: string } | { error: string };

interface Flags {
  i: boolean;
  s: boolean;
}

const POSIX: Record<string, string> = {
  alnum: "A-Za-z0-9",
  alpha: "A-Za-z",
  digit: "0-9",
  lower: "a-z",
  upper: "A-Z",
  space: "\\s",
  xdigit: "0-9A-Fa-f",
  word: "\\w",
  punct: "!-\\/:-@\\[-`{-~",
};

const isLower = (c: string): boolean => c >= "a" && c <= "z";
const isUpper = (c: string): boolean => c >= "A" && c <= "Z";
const otherCase = (c: string): string => (isLower(c) ? c.toUpperCase() : c.toLowerCase());

/** Applies `i`, `-i`, `s`, `-s` (and ignores `m`, `U` refused) to a copy of the flags. */
function withFlags(flags: Flags, spec: string): Flags | string {
  const next = { ...flags };
  let on = true;
  for (const c of spec) {
    if (c === "-") on = false;
    else if (c === "i") next.i = on;
    else if (c === "s") next.s = on;
    else if (c === "m") continue;
    else return `inline flag ${c}`;
  }
  return next;
}

/** One escape outside a class, at `at` (the backslash); returns [JS text, characters consumed]. */
function escape(re: string, at: number): [string, number] | string {
  const c = re[at + 1];
  if (c === undefined) return "trailing backslash";
  if (c === "z") return ["$", 2];
  if (c === "A") return ["^", 2];
  if (c === "x" && re[at + 2] === "{") {
    const close = re.indexOf("}", at);
    const hex = re.slice(at + 3, close);
    if (!/^[0-9a-fA-F]{1,4}$/.test(hex)) return `escape \\x{${hex}}`;
    return [`\\u${hex.padStart(4, "0")}`, close - at + 1];
  }
  if ("QEpPCX".includes(c)) return `escape \\${c}`;
  return [`\\${c}`, 2];
}

/** A bracket class starting at `at`; returns [JS class, characters consumed]. */
function bracket(re: string, at: number, flags: Flags): [string, number] | string {
  let index = at + 1;
  let head = "[";
  if (re[index] === "^") {
    head += "^";
    index++;
  }
  let out = "";
  let first = true;
  const extra: string[] = [];
  for (; index < re.length; first = false) {
    const c = re[index]!;
    // The other case's letters go first: after a trailing `-` they would read as a range.
    if (c === "]" && !first) return [`${head}${extra.join("")}${out}]`, index - at + 1];
    if (c === "[" && re[index + 1] === ":") {
      const close = re.indexOf(":]", index);
      const name = close < 0 ? "" : re.slice(index + 2, close);
      const expansion = POSIX[name.replace(/^\^/, "")];
      if (!expansion || name.startsWith("^")) return `class [:${name}:]`;
      out += expansion;
      index = close + 2;
      continue;
    }
    if (c === "\\") {
      const next = re[index + 1];
      if (next === undefined || "QEpPCX".includes(next)) return `escape \\${next ?? ""} in a class`;
      if (next === "x" && re[index + 2] === "{") {
        const close = re.indexOf("}", index);
        const hex = re.slice(index + 3, close);
        if (!/^[0-9a-fA-F]{1,4}$/.test(hex)) return `escape \\x{${hex}}`;
        out += `\\u${hex.padStart(4, "0")}`;
        index = close + 1;
        continue;
      }
      out += `\\${next}`;
      index += 2;
      continue;
    }
    // A range `a-z` of letters of one case gains the other case's range under `i`.
    if (re[index + 1] === "-" && re[index + 2] !== undefined && re[index + 2] !== "]" && re[index + 2] !== "\\") {
      const to = re[index + 2]!;
      out += `${c === "[" || c === "]" ? `\\${c}` : c}-${to === "[" ? "\\[" : to}`;
      if (flags.i && ((isLower(c) && isLower(to)) || (isUpper(c) && isUpper(to)))) extra.push(`${otherCase(c)}-${otherCase(to)}`);
      index += 3;
      continue;
    }
    out += c === "[" || c === "]" ? `\\${c}` : c;
    if (flags.i && (isLower(c) || isUpper(c))) extra.push(otherCase(c));
    index++;
  }
  return "unclosed class";
}

/**
 * The JavaScript source of an RE2 expression, or why it has none. With `maxRepeat`, unbounded
 * repeats get that upper bound (`+` → `{1,max}`, `*` → `{0,max}`, `{n,}` → `{n,n+max}`).
 */
export function translateRe2(re: string, maxRepeat?: number): Re2Translation {
  const stack: Flags[] = [];
  let flags: Flags = { i: false, s: false };
  let out = "";
  for (let index = 0; index < re.length; ) {
    const c = re[index]!;
    if (c === "\\") {
      const result = escape(re, index);
      if (typeof result === "string") return { error: result };
      out += result[0];
      index += result[1];
    } else if (c === "[") {
      const result = bracket(re, index, flags);
      if (typeof result === "string") return { error: result };
      out += result[0];
      index += result[1];
    } else if (c === "(") {
      const rest = re.slice(index);
      const inline = /^\(\?([a-zA-Z-]*)([:)])/.exec(rest);
      const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      if (named) {
        stack.push(flags);
        out += `(?<${named[1]}>`;
        index += named[0].length;
      } else if (inline) {
        const next = withFlags(flags, inline[1]!);
        if (typeof next === "string") return { error: next };
        if (inline[2] === ")") flags = next;
        else {
          stack.push(flags);
          flags = next;
          out += "(?:";
        }
        index += inline[0].length;
      } else if (rest.startsWith("(?")) {
        return { error: `group ${rest.slice(0, 4)}` };
      } else {
        stack.push(flags);
        out += "(";
        index++;
      }
    } else if (c === ")") {
      const outer = stack.pop();
      if (!outer) return { error: "unbalanced )" };
      flags = outer;
      out += ")";
      index++;
    } else if (maxRepeat !== undefined && (c === "+" || c === "*")) {
      out += `{${c === "+" ? 1 : 0},${maxRepeat}}`;
      index++;
    } else if (maxRepeat !== undefined && c === "{" && /^\{\d+,\}/.test(re.slice(index, index + 12))) {
      const open = /^\{(\d+),\}/.exec(re.slice(index, index + 12))!;
      out += `{${open[1]},${Number(open[1]) + maxRepeat}}`;
      index += open[0].length;
    } else if (c === "." && flags.s) {
      out += "[\\s\\S]";
      index++;
    } else if (flags.i && (isLower(c) || isUpper(c))) {
      out += `[${c}${otherCase(c)}]`;
      index++;
    } else {
      out += c;
      index++;
    }
  }
  if (stack.length > 0) return { error: "unclosed group" };
  return { source: out };
}
