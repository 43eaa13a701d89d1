// Every label, chip and verdict the app can show is in words a user understands: no rule id of our
// spec (FM-CC-4, CP-CC-INF-2) and no code name (usageTokens, autoCompactTokenLimit) in the visible
// text. Collected from their sources: every registered policy's name, parameters, switches and
// spiral labels as the panel words them; every verdict; the simulator's result rendered to markup
// (title attributes, the "why" tooltips, are left out: the rule ids belong there) for every agent's
// committed recording under its own policy; the recorded compactions' trigger sentences; the
// inferred badges. Also: counts with their plural, rounded numbers, no negative saving.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { analyzeSession } from "../../src/core/session/pipeline";
import { sessionProfileOf } from "../../src/core/session/agents";
import { VERDICTS } from "../../src/core/simulate/types";
import { codeWords } from "../support/codeWords";
import { compactionOutcome } from "../../src/features/compaction/compactionOutcomeModel";
import { policyInfos, simulatorPolicies, SimulatorService } from "../../src/features/simulator/simulatorService";
import { SimulatorResult } from "../../src/features/simulator/SimulatorResult";
import { SimulatorControls } from "../../src/features/simulator/SimulatorControls";
import { useSimulatorStore } from "../../src/features/simulator/simulatorState";
import type { SimulatorSettings } from "../../src/features/simulator/protocol";
import { simulatorSettings } from "../support/simulatorSettings";
import { InferredBadge, InferredRulesBadge } from "../../src/ui/InferredBadge";
import { formatInt } from "../../src/ui/format";
import { codeNameWords, formatFigure, inWords, plural, savingWords, verdictWords } from "../../src/ui/words";
import { fixtureCase } from "../support/fixtures";

type SimState = ReturnType<typeof useSimulatorStore.getState>;

/** Rendered outside a browser, a zustand store answers with its initial state: the test sets that one. */
function setSimState(patch: Partial<SimState>): void {
  Object.assign(useSimulatorStore.getInitialState(), patch);
}

/** The text a person sees in markup: tags and their attributes (tooltips included) dropped. */
function visibleText(html: string): string {
  return html
    .replace(/<(textarea|pre)[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** Session content (message previews) is the file's, not ours: left out of what is checked. */
function withoutSessionText(html: string): string {
  return html.replace(/<span class="sim-preview"[^>]*>[\s\S]*?<\/span>/g, "");
}

function settings(policyId: string, turn: number): SimulatorSettings {
  return simulatorSettings({ turn, policyId });
}

// Each agent's committed recording with a compaction: the simulator on its own policy.
const CASES = ["pi/print-openai-autocompact", "senpi/print-openai-autocompact", "claude/print-autocompact-manualcompact", "codex/exec-autocompact", "opencode/run-autocompact"];

describe("labels every registered policy brings", () => {
  const infos = policyInfos();
  it("names, parameters, switches, choices and spiral labels, as the panel shows them", () => {
    const shown: string[] = [];
    for (const info of infos) {
      shown.push(inWords(info.label));
      if (info.spiral) shown.push(inWords(info.spiral.title), inWords(info.spiral.off), inWords(info.spiral.on));
      for (const parameter of info.parameters) {
        shown.push(inWords(parameter.presentation?.label ?? parameter.label));
        for (const choice of parameter.presentation?.choices ?? []) shown.push(inWords(choice.label));
      }
    }
    expect(shown.length).toBeGreaterThan(30);
    expect(shown.flatMap(codeWords)).toEqual([]);
  });

  it("the panel's controls, rendered for every policy", () => {
    for (const info of infos) {
      setSimState({ policies: infos, policyId: info.id, parameters: {} });
      const html = renderToStaticMarkup(createElement(SimulatorControls));
      expect(html).toContain("Parameters of");
      expect(codeWords(visibleText(html)), info.id).toEqual([]);
    }
  });

  it("every verdict in words", () => {
    const words = VERDICTS.map(verdictWords);
    expect(new Set(words).size).toBe(VERDICTS.length);
    expect(words.flatMap(codeWords)).toEqual([]);
  });

  it("inferred badges say so in words, their rule ids only in the tooltip", () => {
    const one = renderToStaticMarkup(createElement(InferredBadge, { rule: { ruleId: "CP-CC-INF-2", what: "the pending prompt's size [INF CP-CC-INF-2]", alternative: "" } }));
    const many = renderToStaticMarkup(createElement(InferredRulesBadge, { ruleIds: ["CP-CC-INF-1", "CP-CC-INF-2"], what: "This simulation follows rules we inferred." }));
    for (const html of [one, many]) {
      expect(visibleText(html).trim()).toMatch(/^inferred\b/);
      expect(html).toContain("our choice where the agent&#x27;s source and its recordings are silent or ambiguous");
      expect(codeWords(visibleText(html))).toEqual([]);
      expect(html).toMatch(/title="[^"]*CP-CC-INF-2/);
    }
    expect(visibleText(many)).toContain("(2 rules)");
  });
});

describe("the simulator's result on every agent's recording", () => {
  for (const id of CASES) {
    it(`${id}: no rule id or code name in what the result shows`, () => {
      const { session } = fixtureCase(id);
      const options: PipelineOptions = { profile: sessionProfileOf(session) ?? "pi", api: null, header: null, leafId: null };
      const { policies, sessionPolicyId } = simulatorPolicies(session, options);
      expect(sessionPolicyId).not.toBeNull();
      const service = new SimulatorService(session);
      const turns = analyzeSession(session, options).turns.length;
      for (const turn of [1, Math.max(1, Math.floor(turns / 2)), turns]) {
        const view = service.simulate(options, settings(sessionPolicyId!, turn));
        setSimState({ policies, policyId: sessionPolicyId!, simulation: { status: "ready", result: view, error: null }, simulationSettings: null });
        const html = renderToStaticMarkup(createElement(SimulatorResult, { turn }));
        const text = visibleText(withoutSessionText(html));
        expect(text).toContain("Verdict");
        expect(codeWords(text).join(" "), `${id} turn ${turn}: ${text}`).toBe("");
        expect(text).not.toMatch(/\b1 (messages|calls|entries|turns|rules)\b/);
        expect(text).not.toMatch(/sav(ed|es) ~-/);
        expect(text).not.toMatch(/\d\.\d{3,}/);
      }
    });
  }
});

describe("the recorded compactions' rows", () => {
  for (const id of CASES) {
    it(`${id}: the trigger sentence names the policy in words`, () => {
      const { session } = fixtureCase(id);
      const options: PipelineOptions = { profile: sessionProfileOf(session) ?? "pi", api: null, header: null, leafId: null };
      const analysis = analyzeSession(session, options);
      const rows = analysis.timeline.filter((item) => item.kind === "compaction");
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const outcome = compactionOutcome(session, options, analysis, (row as { entryId: string }).entryId);
        const texts = [outcome?.trigger ?? "", outcome?.triggerShort ?? "", outcome?.note ?? ""];
        expect(texts.flatMap(codeWords), texts.join("\n")).toEqual([]);
      }
    });
  }
});

describe("a senpi file is senpi's", () => {
  it("opens with the senpi profile and policy; pi's file with pi's", () => {
    const senpi = fixtureCase("senpi/print-openai-autocompact").session;
    const pi = fixtureCase("pi/print-openai-autocompact").session;
    expect(sessionProfileOf(senpi)).toBe("senpi");
    expect(sessionProfileOf(pi)).toBeNull();
    expect(simulatorPolicies(senpi, { api: null, header: null, leafId: null }).sessionPolicyId).toBe("senpi");
    expect(simulatorPolicies(pi, { api: null, header: null, leafId: null }).sessionPolicyId).toBe("pi");
  });
});

describe("the shared words", () => {
  it("counts with their plural, rounded, with thousands separators", () => {
    expect(plural(1, "message")).toBe("1 message");
    expect(plural(2, "call")).toBe("2 calls");
    expect(plural(1, "entry", "entries")).toBe("1 entry");
    expect(plural(15414.0672, "token")).toBe("15,414 tokens");
    expect(formatInt(15414.0672)).toBe("15,414");
    expect(formatFigure(15414.0672)).toBe("15,414");
    expect(formatFigure(0.5)).toBe("0.5");
  });

  it("never a negative saving", () => {
    expect(savingWords(-807)).toBe("adds ~807");
    expect(savingWords(1848.4)).toBe("saves ~1,848");
  });

  it("code names and rule ids said in words, the ids kept for the tooltip", () => {
    expect(codeWords(codeNameWords("usageTokens"))).toEqual([]);
    expect(codeNameWords("post-compaction-over-budget")).toBe("still over the limit after compaction");
    expect(inWords("round(chars/4) of the pending prompt [INF CP-CC-INF-2]")).toBe("round(chars/4) of the pending prompt (inferred)");
    expect(inWords("last usage 11063 + estimate 0 of later messages (PI-K4)")).toBe("last usage 11063 + estimate 0 of later messages");
    expect(inWords("parameter autoCompactWindow")).toBe("parameter automatic compaction window");
  });
});
