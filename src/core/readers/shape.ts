// Field types of a parsed line, checked against what the agent writes. Every stage after a reader
// may trust the fields a shape names: a field of another type is taken out (an optional field is
// removed, an array element is dropped, a required field gets an empty value of its type) and
// named in a warning on the entry's line, so one bad field costs that field, never the session.
// The walk follows the shape, which is finite, so it needs no depth cap of its own.
import { isText } from "../text/text";

export type Shape =
  | { kind: "string" }
  /** A text of the model: a string, or a large text the reader kept as bytes (a stored text). */
  | { kind: "text" }
  | { kind: "number" }
  | { kind: "boolean" }
  /** Milliseconds since the epoch that a Date can hold (|t| ≤ 8.64e15). */
  | { kind: "epoch-ms" }
  /** Any JSON value: kept as it is. */
  | { kind: "any" }
  | { kind: "array"; items: Shape }
  | { kind: "object"; fields: Readonly<Record<string, Shape>>; required?: readonly string[] }
  /**
   * One of several shapes, chosen by a discriminating key (content parts by `type`). `closed`:
   * the cases are every value the agent writes, so another one does not fit (a part of an
   * unknown type is left out of its array, with a warning, rather than reaching a serializer).
   */
  | { kind: "tagged"; key: string; cases: Readonly<Record<string, Shape>>; closed?: boolean }
  | { kind: "union"; options: readonly Shape[] };

export const S = {
  string: { kind: "string" } as Shape,
  text: { kind: "text" } as Shape,
  number: { kind: "number" } as Shape,
  boolean: { kind: "boolean" } as Shape,
  epochMs: { kind: "epoch-ms" } as Shape,
  any: { kind: "any" } as Shape,
  array: (items: Shape): Shape => ({ kind: "array", items }),
  object: (fields: Record<string, Shape>, required: string[] = []): Shape => ({ kind: "object", fields, required }),
  tagged: (key: string, cases: Record<string, Shape>): Shape => ({ kind: "tagged", key, cases }),
  closedTagged: (key: string, cases: Record<string, Shape>): Shape => ({ kind: "tagged", key, cases, closed: true }),
  union: (...options: Shape[]): Shape => ({ kind: "union", options }),
};

const MAX_EPOCH_MS = 8.64e15;

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return `${typeof value === "string" ? "a string" : typeof value === "number" ? `the number ${value}` : `a ${typeof value}`}`;
}

function describe(shape: Shape): string {
  switch (shape.kind) {
    case "string":
    case "text":
      return "a string";
    case "number":
      return "a finite number";
    case "boolean":
      return "true or false";
    case "epoch-ms":
      return "a time in milliseconds";
    case "array":
      return "an array";
    case "object":
      return "an object";
    case "tagged":
      return shape.closed ? `an object whose ${shape.key} is ${Object.keys(shape.cases).map((c) => `"${c}"`).join(", ")}` : "an object";
    case "union":
      return shape.options.map(describe).join(" or ");
    default:
      return "a value";
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` can be kept under `shape` at all (its outer type matches). */
function fits(shape: Shape, value: unknown): boolean {
  switch (shape.kind) {
    case "string":
      return typeof value === "string";
    case "text":
      return isText(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "epoch-ms":
      return typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= MAX_EPOCH_MS;
    case "any":
      return true;
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    case "tagged":
      return isPlainObject(value) && (!shape.closed || (typeof value[shape.key] === "string" && Object.hasOwn(shape.cases, value[shape.key] as string)));
    case "union":
      return shape.options.some((option) => fits(option, value));
  }
}

function emptyOf(shape: Shape): unknown {
  switch (shape.kind) {
    case "string":
    case "text":
      return "";
    case "number":
    case "epoch-ms":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "union":
      return emptyOf(shape.options[0]!);
    default:
      return {};
  }
}

/** Whether a value fitting `shape` may still hold parts to check (a container's fields or items). */
function holdsFields(shape: Shape): boolean {
  return shape.kind === "array" || shape.kind === "object" || shape.kind === "tagged" || shape.kind === "union";
}

interface FieldCheck {
  key: string;
  shape: Shape;
  required: boolean;
}

/** Each object shape's fields as a list, made once: every line of a session is checked against the same shapes. */
const fieldLists = new WeakMap<Shape, readonly FieldCheck[]>();

function fieldsOf(shape: Extract<Shape, { kind: "object" }>): readonly FieldCheck[] {
  let fields = fieldLists.get(shape);
  if (!fields) {
    fields = Object.entries(shape.fields).map(([key, field]) => ({ key, shape: field, required: shape.required?.includes(key) ?? false }));
    fieldLists.set(shape, fields);
  }
  return fields;
}

/**
 * `value` checked against `shape`: the same object when everything fits (no copy), else a copy
 * with the misfits taken out, each named in `problems` by its path.
 */
export function conform(shape: Shape, value: unknown, path: string, problems: string[]): unknown {
  switch (shape.kind) {
    case "array": {
      if (!Array.isArray(value)) return value;
      let out: unknown[] | null = null;
      const nested = holdsFields(shape.items);
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (!fits(shape.items, item)) {
          problems.push(`${path}[${i}] is ${typeName(item)}, expected ${describe(shape.items)}; left out`);
          out ??= value.slice(0, i);
          continue;
        }
        // A value that fits a plain shape is itself: no path is made for it (most of a line's values).
        const fixed = nested ? conform(shape.items, item, `${path}[${i}]`, problems) : item;
        if (fixed !== item) out ??= value.slice(0, i);
        out?.push(fixed);
      }
      return out ?? value;
    }
    case "object": {
      if (!isPlainObject(value)) return value;
      let out: Record<string, unknown> | null = null;
      for (const { key, shape: fieldShape, required } of fieldsOf(shape)) {
        if (!Object.hasOwn(value, key)) {
          if (required) {
            out ??= { ...value };
            out[key] = emptyOf(fieldShape);
            problems.push(`${path === "" ? key : `${path}.${key}`} is missing; read as empty`);
          }
          continue;
        }
        const field = value[key];
        const fitting = fits(fieldShape, field);
        if (fitting && !holdsFields(fieldShape)) continue;
        const fieldPath = path === "" ? key : `${path}.${key}`;
        if (!fitting) {
          // A missing optional field and null mean the same to the agent's own code.
          if (field === null && !required) continue;
          out ??= { ...value };
          if (required) {
            out[key] = emptyOf(fieldShape);
            problems.push(`${fieldPath} is ${typeName(field)}, expected ${describe(fieldShape)}; read as empty`);
          } else {
            delete out[key];
            problems.push(`${fieldPath} is ${typeName(field)}, expected ${describe(fieldShape)}; ignored`);
          }
          continue;
        }
        const fixed = conform(fieldShape, field, fieldPath, problems);
        if (fixed !== field) {
          out ??= { ...value };
          out[key] = fixed;
        }
      }
      return out ?? value;
    }
    case "tagged": {
      if (!isPlainObject(value)) return value;
      const tag = value[shape.key];
      const chosen = typeof tag === "string" && Object.hasOwn(shape.cases, tag) ? shape.cases[tag]! : null;
      return chosen ? conform(chosen, value, path, problems) : value;
    }
    case "union": {
      const chosen = shape.options.find((option) => fits(option, value));
      return chosen ? conform(chosen, value, path, problems) : value;
    }
    default:
      return value;
  }
}
