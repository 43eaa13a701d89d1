// The hermes-agent: its chat-message list reader, the pipeline that sends those messages as they
// are, and its compaction policy (with the summariser role split).
import type { AgentDescriptor } from "../descriptor";
import { hermesPolicy } from "./policy/policy";
import { messageListPipeline } from "./pipeline";
import { HERMES_FORMAT_ID, messageListReader } from "./reader";

export const hermesAgent = {
  id: HERMES_FORMAT_ID,
  label: "hermes-agent",
  readers: [messageListReader],
  pipeline: messageListPipeline,
  profiles: [],
  policies: [hermesPolicy],
  // A compressed conversation's summary message is a compaction event; no summariser request is
  // rebuilt for it (the list does not say which messages were summarised).
  recorded: { rebuildPolicy: () => null, rebuildInTimeline: false },
  usageSource: "pi",
  options: [],
} satisfies AgentDescriptor;
