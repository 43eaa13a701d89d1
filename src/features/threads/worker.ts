// Sub-agent threads in the pipeline worker: the Messages tab's rows name the threads their tool
// calls started, and a thread finds the parent request that first holds its spawning call.
import type { ContextMessage, PipelineOptions, Session } from "../../core/model";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import type { TurnRequestResult } from "../request/protocol";
import type { ThreadsMethods } from "./protocol";
import { spawnCallLocation, threadCallLinks } from "./threadLinks";

export type { ThreadsMethods } from "./protocol";

/** Names, in the rows of a request view, the sub-agent threads that its tool calls started. */
export function linkThreadCalls(view: TurnRequestResult, messages: readonly ContextMessage[], opened: Session, options: PipelineOptions): void {
  for (const [index, links] of threadCallLinks(messages, opened.threads ?? [], options.thread ?? null)) {
    const row = view.rows[index];
    if (row) row.threads = links;
  }
}

export function threadsHandlers(host: SessionHost): HandlerTable<ThreadsMethods> {
  const { ofSession } = handlerKit(host);
  return {
    spawnCall: ofSession({ stage: "finding the tool call that started a sub-agent thread" }, ({ options, threadId }, { session: opened }) =>
      spawnCallLocation(opened, threadId, { ...options, thread: null }),
    ),
  };
}
