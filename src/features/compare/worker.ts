// The compare view in the pipeline worker: the second session is held beside the open one and
// forgotten when the open session changes (or grows).
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost, WorkerSlot } from "../../worker/sessionHost";
import { CompareSlot } from "./compareSlot";
import type { CompareMethods } from "./protocol";

export type { CompareMethods } from "./protocol";

const SECOND_SESSION: WorkerSlot<CompareSlot> = { make: () => new CompareSlot(), onSessionChange: (slot) => slot.reset() };

export function compareHandlers(host: SessionHost): HandlerTable<CompareMethods> {
  const { ofSession, whileSessionOpen } = handlerKit(host);
  const slot = () => host.keep(SECOND_SESSION);
  return {
    openCompare: whileSessionOpen({ stage: "reading the session to compare with" }, ({ source }) => slot().open(source)),
    compareSessions: ofSession({ stage: "comparing two sessions", tables: "all" }, ({ options, against, priceOverrides }, { target }) =>
      slot().compare(target, options, against, priceOverrides),
    ),
    comparePair: ofSession({ stage: "comparing an aligned pair of requests", tables: "all" }, ({ options, against, index }, { target }) => slot().pair(target, options, against, index)),
  };
}
