// Kilo's automatic compaction in the simulator. Kilo 7.7.7 keeps opencode's gate — compact once
// the last response's tokens reach the model's context less its output limit (`limit.context −
// min(limit.output, 32000)`, or `limit.input − reserved` where the model has an input limit) — its
// kept tail and its single summariser call (docs/formats/kilo.md, "Compaction"), so the policy is
// opencode's, run under Kilo's name. What Kilo adds after a compaction (the replayed prompt) is a
// stored message, rebuilt with the turns; it does not change what the policy keeps.
import type { CompactionPolicy, SimulationResult } from "../../simulate/types";
import { opencodePolicy } from "../opencode/policy/policy";
import { KILO_FORMAT_ID } from "./session";

export const kiloPolicy: CompactionPolicy = {
  ...opencodePolicy,
  id: KILO_FORMAT_ID,
  label: "Kilo compaction",
  simulate: (input, context): SimulationResult => ({ ...opencodePolicy.simulate(input, context), policyId: KILO_FORMAT_ID }),
};
