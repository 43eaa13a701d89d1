// The hermes descriptor's pipeline: a Session read from hermes-agent's own storage (state.db,
// snapshots, transcripts, dumps; ./storage/pipeline.ts) is rebuilt as hermes assembles each API
// call; a plain chat-message list (./pipeline.ts) is sent as written.
import type { FormatPipeline } from "../../pipeline/types";
import { messageListPipeline } from "./pipeline";
import { analyzeStorageSession, buildStorageTurnContext, buildStorageTurnRequest, countStorageTurns } from "./storage/pipeline";
import { hermesStorageHeaderOf } from "./storage/session";

export const hermesPipeline: FormatPipeline = {
  analyze: (session, options, hooks) => (hermesStorageHeaderOf(session) ? analyzeStorageSession(session) : messageListPipeline.analyze(session, options, hooks)),
  countTurns: (session, options) => (hermesStorageHeaderOf(session) ? countStorageTurns(session) : messageListPipeline.countTurns(session, options)),
  buildTurnContext: (session, options, turn, hooks) =>
    hermesStorageHeaderOf(session) ? buildStorageTurnContext(session, options, turn) : messageListPipeline.buildTurnContext(session, options, turn, hooks),
  buildTurnRequest: (session, options, turn, hooks) =>
    hermesStorageHeaderOf(session) ? buildStorageTurnRequest(session, options, turn) : messageListPipeline.buildTurnRequest!(session, options, turn, hooks),
};
