// The hermes-agent: its own storage (state.db with -wal, session_<id>.json snapshots, <id>.jsonl
// transcripts, request dumps, `hermes sessions export`; ./storage/) and the hand-made chat-message
// list, the pipeline that rebuilds each API call as hermes assembles it (./agentPipeline.ts), its
// compaction policy (with the summariser role split) and its recorded compressions.
import type { AgentDescriptor } from "../descriptor";
import { hermesPipeline } from "./agentPipeline";
import { hermesPolicy } from "./policy/policy";
import { HERMES_FORMAT_ID, messageListReader } from "./reader";
import { hermesRecorded } from "./recorded";
import { hermesFilesReader } from "./storage/readers";

export const hermesAgent = {
  id: HERMES_FORMAT_ID,
  label: "hermes-agent",
  readers: [messageListReader, hermesFilesReader],
  pipeline: hermesPipeline,
  profiles: [],
  policies: [hermesPolicy],
  recorded: hermesRecorded,
  usageSource: "pi",
  options: [],
} satisfies AgentDescriptor;
