// The context windows of models our list lacks, from the price dataset: the generated table is what
// the installed @pydantic/genai-prices gives today, and its lookup agrees with the dataset's own
// model matching (calcPrice) on every id both can answer — the dataset's ids, dated names of them
// and the models the shared recordings name.
import { calcPrice, findProvider } from "@pydantic/genai-prices";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveModel } from "../../../src/core/models/catalogue";
import { datasetWindow } from "../../../src/core/models/dataset-window";
import { resolveLimits } from "../../../src/core/simulate/limits";

const FIRST_PARTY = ["anthropic", "openai", "google", "deepseek", "zhipuai", "moonshotai", "x-ai", "mistral"];

function datasetOwnWindow(id: string): number | undefined {
  try {
    return calcPrice({ input_tokens: 0, output_tokens: 0 }, id)?.model.context_window;
  } catch {
    return undefined;
  }
}

describe("model windows from the price dataset", () => {
  it("the committed table is the one the installed dataset generates", () => {
    const generated = execFileSync(process.execPath, ["scripts/model-windows.mjs", "--print"], { encoding: "utf8" });
    expect(readFileSync("src/core/models/dataset-windows.ts", "utf8")).toBe(generated);
  });

  it("agrees with the dataset's own matching wherever both find a window", () => {
    const ids = new Set<string>();
    for (const provider of FIRST_PARTY) {
      for (const model of findProvider({ providerId: provider })!.models) {
        ids.add(model.id);
        ids.add(`${model.id}-20260101`);
      }
    }
    const disagreements: string[] = [];
    let compared = 0;
    for (const id of ids) {
      const theirs = datasetOwnWindow(id);
      const ours = datasetWindow("unknown", id)?.window;
      if (theirs === undefined || ours === undefined) continue;
      compared += 1;
      if (theirs !== ours) disagreements.push(`${id}: ours ${ours}, dataset ${theirs}`);
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(200);
  });

  it("gives the Claude Code recording's model the dataset's window, and says where it came from", () => {
    const model = resolveModel({ provider: "anthropic", modelId: "claude-opus-5-5" }, "anthropic-messages");
    expect(model.contextWindow).toBe(datasetOwnWindow("claude-opus-5-5"));
    expect(model.contextWindow).toBe(1_000_000);
    expect(model.source).toContain("@pydantic/genai-prices");
    expect(model.source).not.toContain("default window");
    expect(resolveLimits(model).contextWindowSource).toBe("the price dataset's window for this model");
  });

  it("a dated name, a routed name and a reseller-only model find their window; an unknown one keeps the default", () => {
    expect(datasetWindow("anthropic", "claude-opus-5-5-20261101")?.model).toBe("claude-opus-5-5");
    expect(datasetWindow("openrouter", "anthropic/claude-opus-5-5")?.window).toBe(1_000_000);
    expect(resolveModel({ provider: "local", modelId: "fake-model" }, null).source).toBe("catalogue-default");
    expect(resolveModel({ provider: "local", modelId: "fake-model" }, null).contextWindow).toBe(128_000);
  });

  it("the user's edit still wins over the dataset's window", () => {
    const model = resolveModel({ provider: "anthropic", modelId: "claude-opus-5-5" }, null, { "anthropic/claude-opus-5-5": { contextWindow: 200_000 } });
    expect(model.contextWindow).toBe(200_000);
    expect(model.source).toBe("user");
  });
});
