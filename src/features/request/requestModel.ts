// Turns a BuiltRequest into what the Request and Messages tabs display: the pretty-printed JSON,
// one summary row per context message, and the character ranges to decorate (not-recorded
// markers, messages synthesised by the pipeline rather than taken from an entry, PI-C7, and
// senpi reply-language notes with their explanation, RL-15 … RL-23).
// Runs in the worker so the UI thread never walks message contents.
import { formatRequestJson } from "../../core/export/request-json";
import type { AgentMessage, BuiltRequest, ContextMessage, LlmMessage } from "../../core/model";
import { isText, textString, type Text } from "../../core/text/text";
import { textHead } from "../../core/text/textTests";
import { inferredLabel, NOTE_RULE, noteExplanation, noteRuleIds, serializerInferences, synthesizedExplanation } from "../../app/explain";
import type { DroppedInfo, MessageRow, RequestFacts, TextHighlight, TurnRequestResult } from "./protocol";

/** Characters of a message row's preview (MessageRow.preview). */
const PREVIEW_CHARS = 160;

/**
 * The starts of a message's texts, joined, as far as a preview reads them: each text is read only
 * up to the preview's first cut (a large stored text is not decoded whole on every step), so the
 * first PREVIEW_CHARS * 2 characters are those of the whole texts joined.
 */
function previewSource(message: LlmMessage): string {
  const head = (text: Text) => textHead(text, PREVIEW_CHARS * 2);
  const texts: string[] = [];
  if (message.role === "user") {
    if (isText(message.content)) texts.push(head(message.content));
    else for (const block of message.content ?? []) texts.push(block.type === "text" ? head(block.text) : `[image ${block.mimeType}]`);
  } else if (message.role === "assistant") {
    for (const block of message.content ?? []) {
      if (block.type === "text") texts.push(head(block.text));
      else if (block.type === "thinking") texts.push(`[thinking] ${head(block.thinking)}`);
      else if (block.type === "toolCall") texts.push(`${block.name}(${JSON.stringify(block.arguments ?? {})})`);
    }
  } else if (message.role === "toolResult") {
    for (const block of message.content ?? []) texts.push(block.type === "text" ? head(block.text) : `[image ${block.mimeType}]`);
  }
  return texts.join(" ⏎ ");
}

/** First text block as stored: the string to search for in the serialized body. */
function firstStoredText(message: LlmMessage): string | null {
  if (message.role === "user") {
    if (isText(message.content)) return textString(message.content);
    const block = (message.content ?? []).find((b) => b.type === "text");
    return block && block.type === "text" ? textString(block.text) : null;
  }
  const content = (message.content ?? []) as { type: string; text?: Text }[];
  const block = content.find((b) => b.type === "text");
  return block?.text === undefined ? null : textString(block.text);
}

function preview(message: LlmMessage): string {
  const joined = previewSource(message);
  const oneLine = joined.length > PREVIEW_CHARS * 2 ? joined.slice(0, PREVIEW_CHARS * 2) : joined;
  const collapsed = oneLine.replace(/\s+/g, " ").trim();
  return collapsed.length > PREVIEW_CHARS ? `${collapsed.slice(0, PREVIEW_CHARS - 1)}…` : collapsed;
}

/** The Messages tab's rows; `charsOf` is the agent's size estimate of one message (`messageCharsEstimator`). */
export function messageRows(messages: ContextMessage[], charsOf: (message: AgentMessage) => number): MessageRow[] {
  return messages.map((context, index) => {
    const chars = charsOf(context.message);
    const row: MessageRow = {
      index,
      role: context.message.role,
      rule: context.provenance.rule,
      entryId: context.provenance.entryId,
      chars,
      tokens: Math.ceil(chars / 4),
      preview: preview(context.message),
    };
    if (context.provenance.ruleId) row.ruleId = context.provenance.ruleId;
    if (context.provenance.inferred) row.inferred = context.provenance.inferred;
    if (context.provenance.explanation) row.explanation = context.provenance.explanation;
    if (context.provenance.inferred) row.inferredRule = inferredLabel(context.provenance.inferred);
    if (context.provenance.note) {
      row.note = context.provenance.note;
      row.noteExplanation = noteExplanation(context.provenance) ?? undefined;
      row.noteRules = noteRuleIds(context.provenance).map(inferredLabel);
    }
    return row;
  });
}

const NOT_RECORDED_KEY = /"\$notRecorded"\s*:\s*("(?:[^"\\]|\\.)*")/g;

/** `[not recorded: …]` placeholders inside strings (e.g. a summariser instruction slot). */
const NOT_RECORDED_TEXT = /\[not recorded: [^\]]*\]/g;

export function notRecordedHighlights(jsonText: string): TextHighlight[] {
  const found: TextHighlight[] = [];
  for (const match of jsonText.matchAll(NOT_RECORDED_KEY)) {
    const at = match.index ?? 0;
    const open = jsonText.lastIndexOf("{", at);
    const close = jsonText.indexOf("}", at + match[0].length);
    let what = "content";
    try {
      what = String(JSON.parse(match[1] ?? '""'));
    } catch {
      // keep the generic label
    }
    found.push({
      kind: "not-recorded",
      start: open >= 0 ? open : at,
      end: close >= 0 ? close + 1 : at + match[0].length,
      label: `Not recorded: ${what}. The session file does not store it; attach a captured request to fill it in.`,
    });
  }
  for (const match of jsonText.matchAll(NOT_RECORDED_TEXT)) {
    const at = match.index ?? 0;
    found.push({
      kind: "not-recorded",
      start: at,
      end: at + match[0].length,
      label: "Not recorded: the session file does not store this text.",
    });
  }
  return found;
}

const SUMMARY_CLOSE = "</summary>";

/**
 * Locates each synthesised message's first text in the JSON text. Messages appear in the body in
 * context order, so the search moves forward from the previous hit: linear in the text size.
 * A reply-language note gets its own kind; a compaction summary that carries a note (RL-23) is
 * split: the wrapper and summary as synthesised, everything after the last `</summary>` as note.
 */
function synthesizedHighlights(jsonText: string, messages: ContextMessage[]): TextHighlight[] {
  const found: TextHighlight[] = [];
  let cursor = 0;
  for (const context of messages) {
    const { provenance } = context;
    const isNote = provenance.rule === NOTE_RULE;
    if (provenance.rule === "entry" && !provenance.note) continue;
    const text = firstStoredText(context.message);
    if (!text) continue;
    const needle = JSON.stringify(text);
    let at = jsonText.indexOf(needle, cursor);
    if (at < 0) at = jsonText.indexOf(needle);
    if (at < 0) continue;
    const end = at + needle.length;
    cursor = end;
    const explained = noteExplanation(provenance);
    if (isNote) {
      found.push({ kind: "note", start: at, end, label: explained ?? synthesizedExplanation(context) });
      continue;
    }
    const tail = provenance.note ? needle.lastIndexOf(SUMMARY_CLOSE) : -1;
    if (tail >= 0 && explained) {
      const tailStart = at + tail + SUMMARY_CLOSE.length;
      found.push({ kind: provenance.inferred ? "inferred" : "synthesized", start: at, end: tailStart, label: synthesizedExplanation(context) });
      // The closing quote of the JSON string stays outside the note's range.
      found.push({ kind: "note", start: tailStart, end: end - 1, label: explained });
      continue;
    }
    found.push({ kind: provenance.inferred ? "inferred" : "synthesized", start: at, end, label: synthesizedExplanation(context) });
  }
  return found;
}

function requestFacts(built: BuiltRequest): RequestFacts {
  return {
    api: built.api,
    model: built.model,
    notRecorded: built.notRecorded,
    inferences: serializerInferences(built.api),
    dropped: built.dropped.map((dropped) => {
      const info: DroppedInfo = { role: dropped.message.role, entryId: dropped.entryId, reason: dropped.reason };
      if (dropped.ruleId) info.ruleId = dropped.ruleId;
      return info;
    }),
  };
}

/** `format` writes the body's JSON text: `formatRequestJson`'s, which a `RequestJsonFormatter` writes from the parts it kept. */
export function requestView(
  turn: number,
  built: BuiltRequest,
  charsOf: (message: AgentMessage) => number,
  format: (body: unknown) => string = formatRequestJson,
): TurnRequestResult {
  const jsonText = format(built.body);
  const highlights = [...notRecordedHighlights(jsonText), ...synthesizedHighlights(jsonText, built.messages)].sort(
    (a, b) => a.start - b.start,
  );
  return { turn, built: requestFacts(built), jsonText, rows: messageRows(built.messages, charsOf), highlights };
}
