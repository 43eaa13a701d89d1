// The pi agent (and its fork senpi, a profile of the same pipeline): its JSONL reader, the
// projection → conversion → senpi-steps pipeline, the pi and senpi compaction policies and the
// rebuild of recorded compactions.
import type { AgentDescriptor } from "../descriptor";
import { piMessageChars } from "./estimate";
import { serializeTurnContext, sessionIdOf } from "../../providers/serialize-turn";
import { piPolicy } from "./policies/pi-policy";
import { senpiPolicy } from "./policies/senpi-policy";
import { piSessionWrittenBy } from "./writtenBy";
import { piReader, PI_FORMAT_ID } from "./reader";
import { extractCompactionInstructions, INSTRUCTION_SLOT_LABELS, mergeCompactionInstructions } from "./compaction/instructions";
import { piRecordedCompactions } from "./recorded";
import { PI_RECORD_TYPES } from "./recordTypes";
import { SENPI_CONTEXT_REDUCTION } from "./senpi-reduction-step";
import { carryPiSessionCache } from "./sessionCache";
import { iteratePiTurnContexts } from "./turnContexts";
import { analyzePiSession, buildPiTurnContext, countPiTurns } from "./turns";

export const piAgent = {
  id: PI_FORMAT_ID,
  label: "pi / senpi",
  // The newest version whose recorded requests the rebuild equals (docs/fidelity.md).
  newestVerified: [{ program: "pi", version: "0.73.1" }, { program: "senpi", version: "2026.8.22-2" }],
  ruleDocs: [
    { prefix: "PI-", doc: "docs/formats/pi.md" },
    { prefix: "SP-", doc: "docs/formats/pi.md" },
    { prefix: "CP-PI", doc: "docs/compaction-simulator.md" },
    { prefix: "CP-SE", doc: "docs/compaction-policies/senpi.md" },
    { prefix: "SE-INF", doc: "docs/compaction-policies/senpi.md" },
  ],
  readableFiles: [
    { agent: "pi", files: "session JSONL, format versions 1–3 (~/.pi/agent/sessions/…)" },
    { agent: "senpi", files: "session JSONL (~/.senpi/agent/sessions/…), read with the senpi profile" },
  ],
  readers: [piReader],
  estimateMessageChars: piMessageChars,
  pipeline: {
    analyze: analyzePiSession,
    countTurns: countPiTurns,
    buildTurnContext: buildPiTurnContext,
    // A followed session that grew keeps its tree, paths, messages and analysis walk (sessionCache.ts).
    carryCaches: carryPiSessionCache,
    // One walk of the branch; each message's wire form comes from the serializers' per-message caches.
    // A reader that keeps no request past the turn after is handed two lists in turn, not copies.
    *iterateTurnRequests(session, options, hooks) {
      const sessionId = sessionIdOf(session);
      const reuseWalk = hooks.reuseRequestLists === true ? {} : undefined;
      for (const context of iteratePiTurnContexts(session, options, hooks, { pathEntryIds: false, ...(reuseWalk ? { reuseWalk } : {}) })) {
        yield { turn: context.turn, request: serializeTurnContext(context, options, sessionId, reuseWalk) };
      }
    },
    // The same walk without serialization: a request's messages are its context's (serializeTurnContext).
    *iterateTurnMessages(session, options, hooks) {
      for (const context of iteratePiTurnContexts(session, options, hooks, { pathEntryIds: false })) yield { turn: context.turn, messages: context.messages };
    },
  },
  profiles: [
    // pi's own pipeline is every view's default: a session of an agent without profiles ignores it.
    { id: "pi", label: "pi", replyLanguageNotes: false, default: true },
    { id: "senpi", label: "senpi", replyLanguageNotes: true },
  ],
  sessionProfile: piSessionWrittenBy,
  policies: [piPolicy, senpiPolicy],
  recorded: piRecordedCompactions,
  // A captured pi summariser request fills the instruction texts of the standalone rebuild (PI-R12).
  summariserCapture: { extract: extractCompactionInstructions, merge: mergeCompactionInstructions, slotLabels: INSTRUCTION_SLOT_LABELS },
  records: PI_RECORD_TYPES,
  usageSource: "pi",
  options: [
    {
      name: SENPI_CONTEXT_REDUCTION,
      label: "Rebuild senpi's context reduction near the limit",
      default: true,
      ruleId: "SP-C7",
      description:
        "With the senpi profile, messages are collapsed, shrunk or cleared as senpi does where the recorded usage reached half the model's known context window; off shows the messages as stored.",
    },
  ],
} satisfies AgentDescriptor;
