// The depth cap (src/core/util/json-depth.ts) on one stored hermes message, wherever it came from
// (state.db row, session snapshot, transcript line, export line). hermes keeps tool-call arguments as
// JSON text inside the message (HS-17), which the pipeline parses again; a message nested deeper than
// the cap, or arguments text nested deeper, is cut here with a warning that names the message, so
// every later walk (size estimate, serializers, canonical JSON) is bounded and the session stays.
import type { ReaderWarning } from "../../../model";
import { isObject } from "../../../util/is-object";
import { capJsonText, capParsedValue, valueNestsDeeperThan } from "../../../util/json-depth";

/** `message` with too-deep values cut (the same object when nothing is too deep); a warning per cut field. */
export function capMessageDepth(message: Record<string, unknown>, where: string, line: number, warnings: ReaderWarning[]): Record<string, unknown> {
  if (!valueNestsDeeperThan(message) && !Array.isArray(message.tool_calls)) return message;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    const capped = capParsedValue(value);
    if (capped.note !== null) warnings.push({ line, reason: `${where}: ${key}: ${capped.note}` });
    // defineProperty keeps a "__proto__" key an own data property, as JSON.parse made it.
    Object.defineProperty(out, key, { value: capped.value, enumerable: true, writable: true, configurable: true });
  }
  if (!Array.isArray(out.tool_calls)) return out;
  out.tool_calls = out.tool_calls.map((call: unknown, index) => {
    if (!isObject(call) || !isObject(call.function) || typeof call.function.arguments !== "string") return call;
    const args = capJsonText(call.function.arguments);
    if (args.note === null) return call;
    warnings.push({ line, reason: `${where}: tool_calls[${index}].function.arguments: ${args.note}` });
    return { ...call, function: { ...call.function, arguments: args.text } };
  });
  return out;
}
