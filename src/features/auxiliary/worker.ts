// Auxiliary requests in the pipeline worker (opencode's title and summariser requests).
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import { auxiliaryRequest } from "./auxiliaryRequest";
import type { AuxiliaryMethods } from "./protocol";

export type { AuxiliaryMethods } from "./protocol";

export function auxiliaryHandlers(host: SessionHost): HandlerTable<AuxiliaryMethods> {
  const { ofSession } = handlerKit(host);
  return {
    auxiliaryRequest: ofSession({ stage: "building an auxiliary request", tables: "all" }, ({ options, index }, { target }) => auxiliaryRequest(target, options, index)),
  };
}
