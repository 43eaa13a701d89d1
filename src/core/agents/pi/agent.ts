// The pi agent (and its fork senpi, a profile of the same pipeline): its JSONL reader, the
// projection → conversion → senpi-steps pipeline, the pi and senpi compaction policies and the
// rebuild of recorded compactions.
import type { AgentDescriptor } from "../descriptor";
import { serializeTurnContext, sessionIdOf } from "../../providers/serialize-turn";
import { piPolicy } from "./policies/pi-policy";
import { senpiPolicy } from "./policies/senpi-policy";
import { piReader, PI_FORMAT_ID } from "./reader";
import { piRecordedCompactions } from "./recorded";
import { iteratePiTurnContexts } from "./turnContexts";
import { analyzePiSession, buildPiTurnContext, countPiTurns } from "./turns";

export const piAgent = {
  id: PI_FORMAT_ID,
  label: "pi / senpi",
  readers: [piReader],
  pipeline: {
    analyze: analyzePiSession,
    countTurns: countPiTurns,
    buildTurnContext: buildPiTurnContext,
    // One walk of the branch; each message's wire form comes from the serializers' per-message caches.
    *iterateTurnRequests(session, options, hooks) {
      const sessionId = sessionIdOf(session);
      for (const context of iteratePiTurnContexts(session, options, hooks, { pathEntryIds: false })) {
        yield { turn: context.turn, request: serializeTurnContext(context, options, sessionId) };
      }
    },
    // The same walk without serialization: a request's messages are its context's (serializeTurnContext).
    *iterateTurnMessages(session, options, hooks) {
      for (const context of iteratePiTurnContexts(session, options, hooks, { pathEntryIds: false })) yield { turn: context.turn, messages: context.messages };
    },
  },
  profiles: [
    { id: "pi", label: "pi", replyLanguageNotes: false },
    { id: "senpi", label: "senpi", replyLanguageNotes: true },
  ],
  policies: [piPolicy, senpiPolicy],
  recorded: piRecordedCompactions,
  usageSource: "pi",
  options: [],
} satisfies AgentDescriptor;
