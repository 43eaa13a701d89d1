// Kilo's automatic compaction in the simulator. Kilo 7.7.7 keeps opencode's gate — compact once
// the last response's tokens reach the model's context less its output limit (`limit.context −
// min(limit.output, 32000)`, or `limit.input − reserved` where the model has an input limit) — its
// kept tail and its single summariser call (docs/formats/kilo.md, "Compaction"), so the policy is
// opencode's, run under Kilo's name on Kilo's stored rows, which are opencode's rows (the policy
// then reads their recorded token counts, as on an opencode session). What Kilo adds after a
// compaction (the replayed prompt) is a stored message, rebuilt with the turns.
import type { Session } from "../../model";
import type { CompactionPolicy, SimulationInput, SimulationResult } from "../../simulate/types";
import { OPENCODE_FORMAT_ID } from "../opencode/index";
import { opencodePolicy } from "../opencode/policy/policy";
import { KILO_FORMAT_ID } from "./session";

/** The input with a Kilo session handed over as the opencode rows it holds. */
function asOpencodeRows(input: SimulationInput): SimulationInput {
  const session: Session = input.session.formatId === KILO_FORMAT_ID ? { ...input.session, formatId: OPENCODE_FORMAT_ID } : input.session;
  return { ...input, session };
}

const spiral = opencodePolicy.spiral;

export const kiloPolicy: CompactionPolicy = {
  ...opencodePolicy,
  id: KILO_FORMAT_ID,
  label: "Kilo compaction",
  simulate: (input, context): SimulationResult => ({ ...opencodePolicy.simulate(asOpencodeRows(input), context), policyId: KILO_FORMAT_ID }),
  ...(spiral ? { spiral: (input: SimulationInput, context, attempts: number) => spiral(asOpencodeRows(input), context, attempts) } : {}),
};
