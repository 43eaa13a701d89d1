// The one-line summary hermes-agent puts in place of an old tool result during phase 1 pruning
// (compaction-policies.md CP-HA-8): `_summarize_tool_result` in agent/context_compressor.py
// (NousResearch/hermes-agent at 0000416b34a3dad10c39446ab62c6626c609c30f), per tool name, with
// a generic `[name] k=v (N chars result)` form for every other tool. Lengths are code points and
// counts use Python's `{n:,}` grouping.
import { parseNestedJson } from "../../../util/json-depth";
import { asObject } from "../../../util/is-object";
import { cpHead, cpLength } from "./codepoints";

function argumentsOf(text: string): Record<string, unknown> {
  try {
    return asObject(parseNestedJson(text)) ?? {};
  } catch {
    return {};
  }
}

/** Python `str(value)` for JSON values (dicts and lists rendered as JSON: our approximation). */
function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  return JSON.stringify(value);
}

const grouped = (n: number): string => n.toLocaleString("en-US");

export function oneLineToolSummary(name: string, argsText: string, output: string): string {
  const args = argumentsOf(argsText);
  const chars = grouped(cpLength(output));
  const lines = output.trim() !== "" ? output.split("\n").length : 0;
  const arg = (key: string, fallback: string): string => (key in args ? pyStr(args[key]) : fallback);
  switch (name) {
    case "terminal": {
      let command = arg("command", "");
      if (cpLength(command) > 80) command = `${cpHead(command, 77)}...`;
      const exit = /"exit_code"\s*:\s*(-?\d+)/.exec(output)?.[1] ?? "?";
      return `[terminal] ran \`${command}\` -> exit ${exit}, ${lines} lines output`;
    }
    case "read_file":
      return `[read_file] read ${arg("path", "?")} from line ${arg("offset", "1")} (${chars} chars)`;
    case "write_file": {
      const content = args.content;
      const written = content ? pyStr(content).split("\n").length : "?";
      return `[write_file] wrote to ${arg("path", "?")} (${written} lines)`;
    }
    case "search_files": {
      const count = /"total_count"\s*:\s*(\d+)/.exec(output)?.[1] ?? "?";
      return `[search_files] ${arg("target", "content")} search for '${arg("pattern", "?")}' in ${arg("path", ".")} -> ${count} matches`;
    }
    case "patch":
      return `[patch] ${arg("mode", "replace")} in ${arg("path", "?")} (${chars} chars result)`;
    case "web_search":
      return `[web_search] query='${arg("query", "?")}' (${chars} chars result)`;
    case "todo":
      return "[todo] updated task list";
    case "clarify":
      return "[clarify] asked user a question";
    case "memory":
      return `[memory] ${arg("action", "?")} on ${arg("target", "?")}`;
    default: {
      // The other named tools of the source (browser_*, web_extract, delegate_task, …) fall back
      // to the generic form here. [INF: HA-INF-PRUNE-LINE]
      const first = Object.entries(args)
        .slice(0, 2)
        .map(([key, value]) => ` ${key}=${cpHead(pyStr(value), 40)}`)
        .join("");
      return `[${name}]${first} (${chars} chars result)`;
    }
  }
}
