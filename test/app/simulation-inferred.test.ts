// The page's simulation with the inferred settings on (its default): at a recorded opencode
// compaction it keeps the tail the database recorded (`tail_start_id`, read from the file, not
// computed by us), and the window settings inference supplied is called inferred, never the
// user's own value.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { inferSettings, recordedCompactionPoints, simulateCompaction } from "../../src/core/session/simulate/index";
import { simulationInput } from "../../src/app/simulation";
import { fixtureCase } from "../support/fixtures";
import { simulatorSettings } from "../support/simulatorSettings";

const options: PipelineOptions = { profile: "pi", api: null, header: null, leafId: null };
const opencode = fixtureCase("opencode/run-autocompact");

describe("simulation with inferred settings", () => {
  it("keeps the recorded tail at the first recorded compaction and says the window was inferred", () => {
    const recorded = recordedCompactionPoints(opencode.session, options)[0]!;
    expect(recorded.recordedKept[0]).toMatch(/^msg_/);
    const inference = inferSettings(opencode.session, options, "opencode");
    expect(inference.limits.contextWindow).toBeGreaterThan(0);
    const settings = simulatorSettings({ turn: recorded.turn, policyId: "opencode", inferred: { parameters: inference.parameters, limits: inference.limits } });
    const result = simulateCompaction(simulationInput(opencode.session, options, settings));
    expect(result.verdict.verdict).toBe("compacted");
    expect(result.partition.details.tailStartId).toBe(recorded.recordedKept[0]);
    expect(result.limits.contextWindowSource).toBe("inferred from this session's compactions");
    const windowOperand = result.trigger.operands.find((o) => o.name === "context window")!;
    expect(windowOperand.source).toContain("inferred from this session's compactions");
    expect(windowOperand.source).not.toContain("your value");
  });

  it("a window the user enters is still the user's", () => {
    const settings = simulatorSettings({ turn: 8, policyId: "opencode", limits: { contextWindow: 27_433 } });
    const result = simulateCompaction(simulationInput(opencode.session, options, settings));
    expect(result.limits.contextWindowSource).toBe("override");
  });
});
