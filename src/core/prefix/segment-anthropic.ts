// PR-3: Anthropic Messages in cache order tools → system → messages. One segment per tool
// definition, per system block, and per message content block (a string content is one text
// block, PD-5); each message also has a small header segment (role and non-content keys).
import { isNotRecorded } from "../model";
import { isObject } from "../util/is-object";
import { isText } from "../text/text";
import { textStartsWith } from "../text/textTests";
import type { SegmentListBuilder } from "./segment-builder";

/** Claude Code's per-version billing block (FM-CC-19 step 5). */
export function isBillingHeaderBlock(block: unknown): boolean {
  return isObject(block) && isText(block.text) && textStartsWith(block.text, "x-anthropic-billing-header:");
}

export function segmentAnthropic(body: Record<string, unknown>, out: SegmentListBuilder, ignoreBillingHeader = false): void {
  const tools = body.tools;
  if (isNotRecorded(tools)) out.add({ label: "tools", level: "tools", messageIndex: null, source: tools, view: "whole" });
  else if (Array.isArray(tools)) {
    tools.forEach((tool, i) =>
      out.add({ label: `tools[${i}]`, level: "tools", messageIndex: null, source: tool, view: "strip", isBlock: true, tokenMode: "json" }),
    );
  }

  const system = body.system;
  if (typeof system === "string") {
    out.add({ label: "system[0]", level: "system", messageIndex: null, source: system, view: "text-block", isBlock: true });
  } else if (isNotRecorded(system)) {
    out.add({ label: "system", level: "system", messageIndex: null, source: system, view: "whole" });
  } else if (Array.isArray(system)) {
    system.forEach((block, i) => {
      // FM-CC-19: `ignoreBillingHeader` leaves the billing block out of the comparison. [INF]
      if (ignoreBillingHeader && isBillingHeaderBlock(block)) return;
      out.add({ label: `system[${i}]`, level: "system", messageIndex: null, source: block, view: "strip", isBlock: true });
    });
  }

  const messages = body.messages;
  if (isNotRecorded(messages)) {
    out.add({ label: "messages", level: "messages", messageIndex: null, source: messages, view: "whole" });
    return;
  }
  if (!Array.isArray(messages)) return;
  // The leading messages the previous request also had come with their segments in one copy.
  for (let m = out.carryMessages("anthropic", messages, 0); m < messages.length; m++) {
    addMessage(out, messages[m], m);
    out.endOfMessage(messages[m]);
  }
}

function addMessage(out: SegmentListBuilder, message: unknown, m: number): void {
  const label = `messages[${m}]`;
  if (!isObject(message)) {
    out.add({ label, level: "messages", messageIndex: m, source: message, view: "whole" });
    return;
  }
  // A message repeated from an earlier turn at the same place: its segments as they were.
  if (out.reuseMessage("anthropic", message, m, "messages")) return;
  out.add({ label, level: "messages", messageIndex: m, source: message, view: "header" });
  const content = message.content;
  if (isText(content)) {
    out.add({
      label: `${label}.content[0]`,
      level: "messages",
      messageIndex: m,
      source: content,
      view: "text-block",
      cacheKey: message,
      isBlock: true,
    });
  } else if (Array.isArray(content)) {
    // A plain loop: every new message of every turn comes here, and a closure per message is garbage.
    for (let b = 0; b < content.length; b++) {
      out.add({ label: `${label}.content[${b}]`, level: "messages", messageIndex: m, source: content[b], view: "strip", isBlock: true });
    }
  } else if (content !== undefined) {
    out.add({ label: `${label}.content`, level: "messages", messageIndex: m, source: content, view: "whole", cacheKey: null });
  }
}
