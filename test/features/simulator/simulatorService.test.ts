// The worker side of the compaction simulator: settings → SimulationInput (reserve, model window,
// summary source, captured instruction slots), the display view (trigger, partition messages,
// replayed-prefix and focus highlights), the spiral run with the brake off and on, the replay, and
// the export of a simulated request.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../src/core/model";
import { formatRequestJson } from "../../../src/core/export/request-json";
import { extractRequestHeader } from "../../../src/core/providers/index";
import { policyInfos, SimulatorService } from "../../../src/features/simulator/simulatorService";
import { simulatedRequestBody, simulationInput } from "../../../src/app/simulation";
import type { SimulatorSettings } from "../../../src/features/simulator/protocol";
import { fixtureCase } from "../../support/fixtures";
import { simulatorSettings } from "../../support/simulatorSettings";

const pi = fixtureCase("pi/print-openai-autocompact");
const senpi = fixtureCase("senpi/print-openai-autocompact");
const options: PipelineOptions = { profile: "pi", api: null, header: null, leafId: null };

function settings(patch: Partial<SimulatorSettings> = {}): SimulatorSettings {
  return simulatorSettings({ turn: 8, limits: { contextWindow: 16000 }, reserve: 11600, ...patch });
}

describe("simulator worker", () => {
  it("lists every policy id; an unsupported one says why; [INF] parameters carry a badge rule", () => {
    const infos = policyInfos();
    // Kilo's policy is opencode's under Kilo's name, registered with Kilo ahead of opencode.
    expect(infos.map((p) => p.id)).toEqual(["deepseek-harness", "pi", "senpi", "kilo", "opencode", "claude-code", "codex", "gemini-cli", "crush", "hermes"]);
    // claude-code / codex may or may not be supported yet: an unsupported id always says why.
    for (const info of infos) expect(info.supported ? info.unsupported : typeof info.unsupported).toBe(info.supported ? null : "string");
    const senpiInfo = infos.find((p) => p.id === "senpi")!;
    expect(senpiInfo.reserveParameter).toBe("reserveTokens");
    expect(senpiInfo.parameters.find((p) => p.name === "thresholdRatio")?.inferred?.ruleId).toBe("CP-SE-INF-1");
    expect(senpiInfo.parameters.find((p) => p.name === "splitTurnRequests")?.inferred?.alternative).toContain("history-and-prefix");
  });

  it("tells the panel what each policy offers, from the policy itself", () => {
    const byId = new Map(policyInfos().map((info) => [info.id, info]));
    expect([...byId.values()].filter((info) => info.spiral).map((info) => info.id)).toEqual(["kilo", "opencode"]);
    expect([...byId.values()].filter((info) => info.modelChoice).map((info) => info.id)).toEqual(["kilo", "opencode"]);
    expect([...byId.values()].filter((info) => info.usesAttachedSummariserCaptures).map((info) => info.id)).toEqual(["pi", "senpi"]);
    expect(byId.get("opencode")?.reserveParameter).toBe("reserved");
    expect(byId.get("hermes")?.reserveParameter).toBeNull();
  });

  it("hands the panel each switch's words and the spiral run's labels as the policy words them, as plain data", () => {
    const infos = policyInfos();
    const switches = infos.flatMap((info) => info.parameters.filter((p) => p.presentation).map((p) => `${info.id}:${p.name}`));
    expect(switches).toEqual(["kilo:spiralBrake", "kilo:compactionMode", "opencode:spiralBrake", "opencode:compactionMode", "hermes:roleSplit"]);
    const roleSplit = infos.find((p) => p.id === "hermes")!.parameters.find((p) => p.name === "roleSplit")!;
    expect(roleSplit.presentation).toEqual({
      label: "Role split",
      choices: [
        { value: "off", label: "off (before the PR)" },
        { value: "pr", label: "pr (as written)" },
        { value: "fixed", label: "on (fixed)" },
      ],
    });
    const opencode = infos.find((p) => p.id === "opencode")!;
    expect(opencode.spiral?.fixParameter).toBe("spiralBrake");
    expect(opencode.parameters.some((p) => p.name === opencode.spiral?.fixParameter && p.type === "boolean")).toBe(true);
    // What crosses the worker boundary survives a structured clone unchanged (no functions, no shared arrays).
    expect(structuredClone(infos)).toEqual(infos);
    // No text a user sees names a pull request by number.
    expect(JSON.stringify(infos)).not.toMatch(/PR #\d/);
  });

  it("maps the limits row's reserve, the model window choice and the summary source", () => {
    const input = simulationInput(pi.session, options, settings({ summary: { kind: "placeholder", tokens: 300 } }));
    expect(input.parameters).toEqual({ reserveTokens: 11600 });
    expect(input.limits).toEqual({ contextWindow: 16000 });
    expect(input.summary).toEqual({ kind: "placeholder", tokens: 300 });
    const agent = simulationInput(pi.session, options, settings({ limits: {}, modelWindow: "agent-default", agentDefaultContextWindow: 8000 }));
    expect(agent.limits).toEqual({ contextWindow: 8000 });
    const oc = simulationInput(pi.session, options, settings({ policyId: "opencode", modelWindow: "precedence", agentDefaultContextWindow: 8000 }));
    expect(oc.parameters).toMatchObject({ reserved: 11600, promptCarriesModel: false, agentDefaultContextWindow: 8000 });
  });

  it("pi after turn 8 with the fixture's limits: the trigger arithmetic, the partition messages and the request", () => {
    const service = new SimulatorService(pi.session);
    const view = service.simulate(options, settings({ parameters: { keepRecentTokens: 1800 } }));
    expect(view.trigger.expression).toBe("4641 > 16000 − 11600 = 4400 → compact");
    expect(view.verdict.verdict).toBe("compacted");
    const summarised = view.ranges.filter((r) => r.kind === "summarised");
    expect(summarised.length).toBeGreaterThan(0);
    expect(summarised[0]!.messages.length).toBeGreaterThan(0);
    expect(summarised[0]!.messages[0]!.tokens).toBeGreaterThan(0);
    expect(view.summariserRequests[0]!.jsonText).toBe(formatRequestJson(JSON.parse(view.summariserRequests[0]!.jsonText)));
    expect(view.after.jsonText).not.toBeNull();
    // Cached per settings: the same object comes back.
    expect(service.simulate(options, settings({ parameters: { keepRecentTokens: 1800 } }))).toBe(view);
  });

  it("captured instruction slots fill the request; the focus topic is highlighted where it sits", () => {
    const captured = pi.request(9) as { messages: { role: string; content: unknown }[] };
    const system = captured.messages[0]!.content as string;
    const view = new SimulatorService(pi.session).simulate(
      options,
      settings({ parameters: { keepRecentTokens: 1800 }, focus: "the lighthouse logs", instructions: { slots: { summarizationSystemPrompt: system }, sources: ["009.json"] } }),
    );
    const request = view.summariserRequests[0]!;
    expect(request.instructionSlots.find((s) => s.slot === "summarizationSystemPrompt")?.filledFrom).toBe("captured");
    const focus = request.highlights.filter((h) => h.kind === "synthesized");
    expect(focus.length).toBeGreaterThan(0);
    expect(request.jsonText.slice(focus[0]!.start, focus[0]!.end)).toBe("the lighthouse logs");
  });

  it("senpi's cache-friendly replay: the replayed prefix is highlighted as byte-identical to the turn's request", () => {
    const senpiOptions: PipelineOptions = {
      ...options,
      profile: "senpi",
      header: extractRequestHeader(senpi.request(8), "008.json"),
      modelOverrides: { "fake/fake-model": { contextWindow: 28000, maxTokens: 4000 } },
    };
    const view = new SimulatorService(senpi.session).simulate(senpiOptions, settings({ policyId: "senpi", limits: {}, reserve: 4000, parameters: { keepRecentTokens: 800 } }));
    const replay = view.summariserRequests.find((r) => r.form === "replay");
    expect(replay).toBeDefined();
    expect(replay!.replayedPrefixChars).toBeGreaterThan(0);
    const prefix = replay!.highlights.find((h) => h.kind === "note" && h.label.startsWith("replayed prefix"));
    expect(prefix).toBeDefined();
  });

  it("spiral run: the next request grows with the brake off and stops with the brake on", () => {
    const spiral = new SimulatorService(pi.session).spiral(options, settings({ policyId: "opencode", reserve: null }), 3);
    expect(spiral.off.verdict).toBe("failed");
    expect(spiral.off.attempts).toHaveLength(3);
    expect(spiral.off.attempts.every((a) => a.grew)).toBe(true);
    expect(spiral.on.verdict).toBe("no-reduction");
    expect(spiral.on.attempts).toHaveLength(1);
  });

  it("whole-session replay marks turns; compare gives both policies' totals", () => {
    const service = new SimulatorService(pi.session);
    const replay = service.replay(options, settings({ parameters: { keepRecentTokens: 1800 } }), "pi");
    expect(replay.compactions.length).toBeGreaterThan(0);
    const compare = service.compare(options, settings({ parameters: { keepRecentTokens: 1800 } }), "deepseek-harness");
    expect(compare.comparison.a.policyId).toBe("pi");
    expect(compare.comparison.b.policyId).toBe("deepseek-harness");
    expect(compare.comparison.difference.tokensSent).toBe(compare.b.totals.tokensSent - compare.a.totals.tokensSent);
  });

  it("exports a simulated summariser request and the request after compaction", () => {
    const s = settings({ parameters: { keepRecentTokens: 1800 } });
    const view = new SimulatorService(pi.session).simulate(options, s);
    const summariser = simulatedRequestBody(pi.session, options, { settings: s, request: 0 });
    expect(formatRequestJson(summariser.body)).toBe(view.summariserRequests[0]!.jsonText);
    const after = simulatedRequestBody(pi.session, options, { settings: s, request: "after" });
    expect(formatRequestJson(after.body)).toBe(view.after.jsonText);
    expect(() => simulatedRequestBody(pi.session, options, { settings: s, request: 7 })).toThrow(/no summariser request 8/);
  });
});
