// The compaction view's kept facts tell the same story as the next request (Details' "N kept").
import { describe, expect, it } from "vitest";
import { withKeptStory } from "../../../src/features/compaction/keptStory";
import type { CompactionOutcomeView, OutcomeMessage } from "../../../src/features/compaction/protocol";

function message(index: number): OutcomeMessage {
  return { index, role: "user", entryId: `m${index}`, tokens: 10, preview: "p" };
}
function outcome(kept: number): CompactionOutcomeView {
  return {
    beforeTurn: 7, afterTurn: 8, kept: Array.from({ length: kept }, (_, i) => message(i)), summarised: [message(99)], added: [],
    recordedBefore: null, tokensBefore: null, tokensAfter: null, trigger: null, triggerShort: null, manual: null, note: null,
  };
}
const nothing = [{ label: "policy", value: "codex" }, { label: "kept (rebuilt)", value: "nothing (everything summarised)" }];

describe("kept facts beside the next request", () => {
  it("never says everything was summarised while the next request still sends 51 earlier messages", () => {
    const facts = withKeptStory(nothing, outcome(51));
    const rebuilt = facts.find((f) => f.label === "kept (rebuilt)")!.value;
    expect(rebuilt).not.toContain("everything summarised");
    expect(rebuilt).toContain("51 messages");
    expect(facts.find((f) => f.label === "kept (next request)")!.value).toBe("51 messages of turn 7's request still sent in turn 8's");
  });
  it("keeps 'everything summarised' when the next request sends none of them", () => {
    const facts = withKeptStory(nothing, outcome(0));
    expect(facts.find((f) => f.label === "kept (rebuilt)")!.value).toBe("nothing (everything summarised)");
    expect(facts.find((f) => f.label === "kept (next request)")!.value).toBe("0 messages of turn 7's request still sent in turn 8's");
  });
  it("leaves the facts alone without a next request", () => {
    expect(withKeptStory(nothing, { ...outcome(3), afterTurn: null })).toEqual(nothing);
  });
});
