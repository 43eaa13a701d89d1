// One story for "what did this compaction keep": the rebuild names the messages the agent's cut
// keeps (by id), the outcome counts the earlier request's messages the next request still sends.
// The next request is what the agent actually sent, so the facts give its count beside the cut's,
// and the rebuild never claims "everything summarised" while the next request still sends earlier
// messages (an agent sends its instructions and environment again after a compaction).
import { plural } from "../../core/util/plural";
import type { CompactionOutcomeView } from "./protocol";

interface Fact {
  label: string;
  value: string;
}

const REBUILT = "kept (rebuilt)";

/** The facts with the kept figures told from the next request (unchanged without a next request). */
export function withKeptStory(facts: readonly Fact[], outcome: CompactionOutcomeView | null | undefined): Fact[] {
  if (!outcome || outcome.afterTurn === null || outcome.beforeTurn === null) return [...facts];
  const still = outcome.kept.length;
  const sent = `${plural(still, "message")} of turn ${outcome.beforeTurn}'s request still sent in turn ${outcome.afterTurn}'s`;
  const out: Fact[] = [];
  for (const fact of facts) {
    if (fact.label !== REBUILT) {
      out.push(fact);
      continue;
    }
    // The rebuild names ids (some agents only the first kept one); "nothing" is the one claim to check.
    const value =
      /^nothing/.test(fact.value) && still > 0
        ? `nothing from the cut; the ${plural(still, "message")} still sent are ones the agent sends again itself`
        : fact.value;
    out.push({ label: REBUILT, value });
    out.push({ label: "kept (next request)", value: sent });
  }
  return out;
}
