// The strings Claude Code writes again on every line, held once. Each conversation line repeats
// the session id, the working folder and the version; the entries of one API message repeat its
// `requestId`, `message.id` and model; `parentUuid` repeats the uuid of the line before, and a tool
// result's `sourceToolAssistantUUID` the uuid of the assistant line that called the tool.
// JSON.parse makes a new string for every value longer than a few characters, so a transcript of
// a gigabyte kept each of them once per line (about a seventh of what its entries hold). The reader
// hands each parsed line to `shareLineStrings`, which puts the equal string the reader holds
// already in its place: the values are the same, only the copies go.
import { isObject } from "../../util/is-object";

/** Top-level fields whose value is usually the one the line before had. */
const REPEATED_FIELDS = ["sessionId", "cwd", "version", "gitBranch", "userType", "entrypoint", "slug", "requestId"];

/** Fields of an assistant line's message whose value is usually the one the line before had. */
const REPEATED_MESSAGE_FIELDS = ["model", "id"];

/** Top-level fields naming the uuid of an earlier line. */
const UUID_FIELDS = ["parentUuid", "logicalParentUuid", "sourceToolAssistantUUID"];

/** Distinct content-block types kept for sharing: a file with more than these names (none written by Claude Code) shares the first ones. */
const MAX_BLOCK_TYPES = 64;

export class LineStrings {
  /** The value each repeated field had on the last line that held it. */
  private readonly lastValue = new Map<string, string>();
  private readonly lastMessageValue = new Map<string, string>();
  private readonly blockTypes = new Map<string, string>();

  /**
   * Replaces in `raw` (in place) the strings equal to ones held already: repeated fields by the
   * previous line's value, uuid references by the id `uuidOf` gives for them (an earlier line's
   * own uuid string), and content-block types by the first copy.
   */
  share(raw: Record<string, unknown>, uuidOf: (uuid: string) => string | undefined): void {
    for (const key of REPEATED_FIELDS) shareRepeated(raw, key, this.lastValue);
    for (const key of UUID_FIELDS) {
      const value = raw[key];
      if (typeof value !== "string") continue;
      const held = uuidOf(value);
      if (held !== undefined) raw[key] = held;
    }
    const message = raw.message;
    if (!isObject(message)) return;
    for (const key of REPEATED_MESSAGE_FIELDS) shareRepeated(message, key, this.lastMessageValue);
    if (!Array.isArray(message.content)) return;
    for (const block of message.content) {
      if (!isObject(block) || typeof block.type !== "string") continue;
      const held = this.blockTypes.get(block.type);
      if (held !== undefined) block.type = held;
      else if (this.blockTypes.size < MAX_BLOCK_TYPES) this.blockTypes.set(block.type, block.type);
    }
  }
}

function shareRepeated(holder: Record<string, unknown>, key: string, lastValue: Map<string, string>): void {
  const value = holder[key];
  if (typeof value !== "string") return;
  const last = lastValue.get(key);
  if (last === value) holder[key] = last;
  else lastValue.set(key, value);
}
