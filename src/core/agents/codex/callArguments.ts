// The arguments of a tool call item (`function_call.arguments`, `custom_tool_call.input`) as the
// Messages view shows them: the JSON they hold, parsed. A large one is a stored text left in the
// file (storedTextPlaces.ts) and is read back when its view is made: parsed when its line was read
// and kept until then, every call's arguments of a session would be in memory at once (about a
// sixth of a generated rollout's bytes), while a walk makes the views in file order, reading the
// file forwards once more.
import { parseNestedJson } from "../../util/json-depth";
import { isObject } from "../../util/is-object";
import { textString, type Text } from "../../text/text";

/** A call's arguments for its view: its JSON object, else `{input: value}` (a value, or text that is not JSON). */
export function callArguments(stored: Text): Record<string, unknown> {
  const raw = textString(stored);
  try {
    const parsed: unknown = parseNestedJson(raw);
    return isObject(parsed) ? parsed : { input: parsed };
  } catch {
    return { input: raw };
  }
}
