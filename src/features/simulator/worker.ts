// The compaction simulator in the pipeline worker: its calls run next to the open session (or
// the thread shown), with the simulator service's caches kept for that session.
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost, SessionSlot } from "../../worker/sessionHost";
import type { SimulatorMethods } from "./protocol";
import { simulatorPolicies, SimulatorService } from "./simulatorService";

export type { SimulatorMethods } from "./protocol";

/** The simulator of the session shown, with its caches; a session that grows gets a new one. */
const SIMULATOR: SessionSlot<SimulatorService> = { make: (target) => new SimulatorService(target) };

export function simulatorHandlers(host: SessionHost): HandlerTable<SimulatorMethods> {
  const { ofSession } = handlerKit(host);
  const simulatorFor = (target: Parameters<typeof host.serviceFor>[1]) => host.serviceFor(SIMULATOR, target);
  return {
    simulatorPolicies: ofSession({ stage: "listing the compaction policies" }, ({ options }, { target }) => simulatorPolicies(target, options)),
    simulate: ofSession({ stage: "simulating a compaction", tables: "all" }, ({ options, settings }, { target }) => simulatorFor(target).simulate(options, settings)),
    spiralRun: ofSession({ stage: "simulating repeated compactions", tables: "all" }, ({ options, settings, attempts }, { target }) =>
      simulatorFor(target).spiral(options, settings, attempts),
    ),
    replaySession: ofSession({ stage: "replaying the session under a compaction policy", tables: "all" }, ({ options, settings, fromTurn, toTurn }, { target }) => {
      const range: { fromTurn?: number; toTurn?: number } = {};
      if (fromTurn !== undefined) range.fromTurn = fromTurn;
      if (toTurn !== undefined) range.toTurn = toTurn;
      return { replay: simulatorFor(target).replay(options, settings, settings.policyId, range) };
    }),
    comparePolicies: ofSession({ stage: "comparing two compaction policies", tables: "all" }, ({ options, settings, otherPolicyId }, { target }) =>
      simulatorFor(target).compare(options, settings, otherPolicyId),
    ),
    inferSettings: ofSession({ stage: "inferring the compaction settings from the recorded compactions", tables: "all" }, ({ options, settings, sliceMs }, { target }) =>
      simulatorFor(target).infer(options, settings, sliceMs, () => performance.now()),
    ),
  };
}
