// Simulator panel settings for tests: the panel's defaults (no parameters, limits or reserve set,
// the recorded model window, the default summary) with the fields a test cares about laid over them.
import type { SimulatorSettings } from "../../src/features/simulator/protocol";

export function simulatorSettings(patch: Partial<SimulatorSettings> = {}): SimulatorSettings {
  return {
    turn: 1,
    policyId: "pi",
    parameters: {},
    summary: { kind: "default" },
    focus: null,
    limits: {},
    reserve: null,
    manual: false,
    modelWindow: "recorded",
    agentDefaultContextWindow: null,
    providerDefaultContextWindow: null,
    instructions: null,
    ...patch,
  };
}
