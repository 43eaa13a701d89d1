// The arguments of a tool call item (`function_call.arguments`, `custom_tool_call.input`) as the
// Messages view shows them: the JSON they hold, parsed. A large one is a stored text left in the
// file (storedTextPlaces.ts); its view would read it back from the file, a second read of the
// whole file when calls are spread over it. So the reader parses it while the line is still in
// memory and keeps what it parsed here, by the stored text, for the view to take once.
import { parseNestedJson } from "../../util/json-depth";
import { isObject } from "../../util/is-object";
import { isStoredText, type StoredText } from "../../text/storedText";
import { textString, type Text } from "../../text/text";

/** Arguments parsed when their line was read, until the view takes them. */
const parsedWhenRead = new WeakMap<StoredText, Record<string, unknown>>();

/** The arguments `stored` holds: its JSON object, else `{input: value}` (a value, or text that is not JSON). */
function parseArguments(stored: Text): Record<string, unknown> {
  const raw = textString(stored);
  try {
    const parsed: unknown = parseNestedJson(raw);
    return isObject(parsed) ? parsed : { input: parsed };
  } catch {
    return { input: raw };
  }
}

/** Parses a call's stored arguments now (its line is being read: its bytes are in memory). */
export function parseStoredArguments(stored: unknown): void {
  if (isStoredText(stored)) parsedWhenRead.set(stored, parseArguments(stored));
}

/** A call's arguments for its view: those parsed when read, else parsed now. */
export function callArguments(stored: Text): Record<string, unknown> {
  if (isStoredText(stored)) {
    const parsed = parsedWhenRead.get(stored);
    if (parsed) {
      parsedWhenRead.delete(stored);
      return parsed;
    }
  }
  return parseArguments(stored);
}
