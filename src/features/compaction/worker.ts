// Recorded compactions in the pipeline worker: what a compaction kept, summarised and added, and
// its summariser request(s) rebuilt (what it did is shown even when the request cannot be).
import { errorText, handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import { compactionOutcome } from "./compactionOutcomeModel";
import { compactionRequests } from "./compactionRequests";
import { withKeptStory } from "./keptStory";
import type { CompactionMethods, CompactionRequestsResult } from "./protocol";

export type { CompactionMethods } from "./protocol";

export function compactionHandlers(host: SessionHost): HandlerTable<CompactionMethods> {
  const { ofSession } = handlerKit(host);
  return {
    // Stepping onto a compaction row: its outcome and rebuild use the policies' own estimates
    // (chars/4, recorded usage); no tokenizer table is loaded for it.
    compactionRequests: ofSession({ stage: "rebuilding a compaction's summariser requests" }, ({ options, entryId, instructions }, { target }): CompactionRequestsResult => {
      const outcome = compactionOutcome(target, options, host.analyze(target, options), entryId);
      try {
        const requests = compactionRequests(target, options, entryId, instructions ?? null);
        return { ...requests, facts: withKeptStory(requests.facts, outcome), outcome };
      } catch (error) {
        return { available: false, entryId, requests: [], facts: [], lints: [], reason: `The summariser request could not be rebuilt: ${errorText(error)}`, outcome };
      }
    }),
  };
}
