// The field types pi and senpi write (pi-ai's message types, pi's session entries), as a shape
// the reader checks each entry against (src/core/readers/shape.ts). A field of another type is
// taken out with a warning on its line, so the pipeline, the serializers and the token counts
// only ever see the types pi itself would have written. `S.text` marks the places where the reader
// may keep a large text as bytes (./storedTextPlaces.ts): a stored text fits there as a string does.
import { S, type Shape } from "../../readers/shape";

const text = S.object({ type: S.string, text: S.text, textSignature: S.string }, ["text"]);
const image = S.object({ type: S.string, data: S.text, mimeType: S.string }, ["data", "mimeType"]);
const thinking = S.object({ type: S.string, thinking: S.text, thinkingSignature: S.string, redacted: S.boolean }, ["thinking"]);
const toolCall = S.object({ type: S.string, id: S.string, name: S.string, arguments: S.object({}), thoughtSignature: S.string }, ["id", "name", "arguments"]);

const part = S.closedTagged("type", { text, image, thinking, toolCall });
const content = S.union(S.text, S.array(part));

const usage = S.object({
  input: S.number,
  output: S.number,
  cacheRead: S.number,
  cacheWrite: S.number,
  totalTokens: S.number,
  cost: S.object({ input: S.number, output: S.number, cacheRead: S.number, cacheWrite: S.number, total: S.number }),
});

const message = S.tagged("role", {
  // A null or missing `content` is read as no content by pi and senpi (SP-P1): not required here.
  user: S.object({ role: S.string, content, timestamp: S.epochMs }),
  assistant: S.object(
    {
      role: S.string,
      content: S.array(part),
      api: S.string,
      provider: S.string,
      model: S.string,
      usage,
      stopReason: S.string,
      errorMessage: S.string,
      timestamp: S.epochMs,
    },
  ),
  toolResult: S.object(
    { role: S.string, toolCallId: S.string, toolName: S.string, content: S.array(part), isError: S.boolean, timestamp: S.epochMs },
    ["toolCallId"],
  ),
  bashExecution: S.object({ role: S.string, command: S.string, output: S.text, timestamp: S.epochMs }, ["command", "output"]),
  custom: S.object({ role: S.string, customType: S.string, content, display: S.boolean, timestamp: S.epochMs }),
  branchSummary: S.object({ role: S.string, summary: S.text, fromId: S.string, timestamp: S.epochMs }, ["summary"]),
  compactionSummary: S.object({ role: S.string, summary: S.text, tokensBefore: S.number, timestamp: S.epochMs }, ["summary"]),
});

/** Each entry type's fields that the pipeline reads. Types not listed are kept as they are. */
export const PI_ENTRY_SHAPE: Shape = S.tagged("type", {
  message: S.object({ message }),
  compaction: S.object({ summary: S.text, firstKeptEntryId: S.string, tokensBefore: S.number, fromHook: S.boolean }, ["summary"]),
  branch_summary: S.object({ summary: S.text, fromId: S.string }, ["summary"]),
  model_change: S.object({ provider: S.string, modelId: S.string }),
  thinking_level_change: S.object({ thinkingLevel: S.string }),
  custom_message: S.object({ customType: S.string, content, display: S.boolean }),
  custom: S.object({ customType: S.string }),
  label: S.object({ targetId: S.string, label: S.string }),
  session_info: S.object({ name: S.string }),
});
