// The Request view's JSON text, written once per message rather than once per step. Stepping to
// the next turn shows a request whose messages are mostly the previous request's own objects (an
// agent's walk carries them from turn to turn); the text of each top-level value and of each
// element of a top-level array is kept from the last request formatted and reused when the same
// object comes again, so a step writes (and decodes the stored texts of) only what is new. The
// text is byte for byte `formatRequestJson`'s: JSON.stringify's two-space layout, put together
// from the parts' own texts indented to their depth (a JSON text has no raw line break inside a
// string, so indenting is a plain replacement of its line breaks).
import { formatRequestJson } from "../../core/export/request-json";
import { renderingStoredTexts, stringifyWithTexts } from "../../core/text/text";

const INDENT = "  ";

/** A value JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function hasToJson(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function";
}

function isPlainBody(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body) && !hasToJson(body);
}

/** Formats request bodies, reusing the texts of the parts the previous body shared with this one. */
export class RequestJsonFormatter {
  /** Texts of the last body's parts by object, one map per depth (a text is indented to its depth). */
  private kept: Map<object, string>[] = [new Map(), new Map()];
  private next: Map<object, string>[] = [new Map(), new Map()];

  /** Exactly `formatRequestJson(body)`. */
  format(body: unknown): string {
    if (!isPlainBody(body)) return formatRequestJson(body);
    this.next = [new Map(), new Map()];
    // Concatenated rather than joined: the parts stay as they are until the whole text is read.
    let text = "";
    for (const key of Object.keys(body)) {
      const raw = body[key];
      if (hasToJson(raw)) return this.fallBack(body);
      const value = renderingStoredTexts(key, raw);
      if (omitted(value)) continue;
      text += `${text === "" ? "{\n" : ",\n"}${INDENT}${JSON.stringify(key)}: `;
      text += Array.isArray(value) ? this.array(value) : this.part(value, 1);
    }
    this.kept = this.next;
    return text === "" ? "{}" : `${text}\n}`;
  }

  private fallBack(body: unknown): string {
    this.kept = [new Map(), new Map()];
    return formatRequestJson(body);
  }

  /** A top-level array (the messages, the tools): each element is a part of its own. */
  private array(items: unknown[]): string {
    if (items.length === 0) return "[]";
    const pad = INDENT.repeat(2);
    let text = "[";
    for (let index = 0; index < items.length; index++) {
      const value = renderingStoredTexts(String(index), items[index]);
      text += `${index === 0 ? "\n" : ",\n"}${pad}`;
      text += omitted(value) ? "null" : this.part(value, 2);
    }
    return `${text}\n${INDENT}]`;
  }

  /** One value's text at `depth`, from the last body's when it is the same object. */
  private part(value: unknown, depth: 1 | 2): string {
    if (typeof value !== "object" || value === null) return JSON.stringify(value);
    const next = this.next[depth - 1]!;
    const known = this.kept[depth - 1]!.get(value) ?? next.get(value);
    const text = known ?? stringifyWithTexts(value, 2).replaceAll("\n", `\n${INDENT.repeat(depth)}`);
    next.set(value, text);
    return text;
  }
}
