// The simulator's settings in a v2 share link's `view.simulation`: encoded under reserved
// prefixes, decoded back to the same panel settings, validated by the v2 decoder as any link, and
// a v2 link without them (or with only bare parameter names, as earlier builds documented) still
// opens with no simulator state.
import { describe, expect, it } from "vitest";
import { decodeSimulatorShare, encodeSimulatorShare } from "../../../src/features/simulator/simulatorShare";
import type { SimulatorSettings } from "../../../src/features/simulator/protocol";
import { decodeShareLink, encodeShareFragment } from "../../../src/core/share/fragment";
import { CURRENT_SHARE_VERSION } from "../../../src/core/share/versions";
import { simulatorSettings } from "../../support/simulatorSettings";

const settings: SimulatorSettings = simulatorSettings({
  turn: 8,
  parameters: { keepRecentTokens: 900, boundaryRule: "G1" },
  summary: { kind: "placeholder", tokens: 300 },
  focus: "the store module",
  limits: { contextWindow: 16000 },
  inferred: { parameters: { reserveTokens: 11760 }, limits: { maxOutputTokens: 4000 } },
});

describe("simulator settings in share links", () => {
  it("round-trips through a v2 link", () => {
    const simulation = encodeSimulatorShare(settings);
    const fragment = encodeShareFragment({ v: CURRENT_SHARE_VERSION, session: { fileName: "s.jsonl", formatId: "pi", scope: "branch", lines: ["{}"] }, view: { turn: 8, tab: "request", profile: "pi", provider: null, notes: false, leafId: null, simulation } } as never);
    expect(fragment.startsWith("#v2=")).toBe(true);
    const decoded = decodeShareLink(fragment);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    const shared = decodeSimulatorShare(decoded.payload.view.simulation);
    expect(shared).toEqual({
      policyId: "pi",
      turn: 8,
      parameters: { keepRecentTokens: 900, boundaryRule: "G1" },
      limits: { contextWindow: 16000 },
      reserve: null,
      manual: false,
      focus: "the store module",
      summary: { kind: "placeholder", tokens: 300 },
      modelWindow: "recorded",
      agentDefaultContextWindow: null,
      providerDefaultContextWindow: null,
      inferred: { parameters: { reserveTokens: 11760 }, limits: { maxOutputTokens: 4000 } },
      manualCompactions: [],
    });
  });

  it("carries the compactions the user marked manual", () => {
    const simulation = encodeSimulatorShare({ ...settings, manualCompactions: [1, 3] });
    expect(simulation.sim_manualCompactions).toBe("1,3");
    expect(decodeSimulatorShare(simulation)!.manualCompactions).toEqual([1, 3]);
    expect(decodeSimulatorShare({ ...simulation, sim_manualCompactions: "x,0,2" })!.manualCompactions).toEqual([2]);
    expect("sim_manualCompactions" in encodeSimulatorShare(settings)).toBe(false);
  });

  it("policy defaults (no inferred settings) stay so", () => {
    expect(decodeSimulatorShare(encodeSimulatorShare({ ...settings, inferred: null }))!.inferred).toBeNull();
  });

  it("a v2 simulation map without the simulator's keys restores nothing", () => {
    expect(decodeSimulatorShare({ reserveTokens: 16384, keepRecentTokens: 20000 })).toBeNull();
    expect(decodeSimulatorShare(null)).toBeNull();
    expect(decodeSimulatorShare(undefined)).toBeNull();
  });
});
