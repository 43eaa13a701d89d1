// The catalogue's context windows against a dataset we did not write: @pydantic/genai-prices (the
// price dataset, pinned), which records a context window for most models. Every entry the dataset
// knows must agree with it, except the differences listed here with why ours is the one to use.
import { calcPrice } from "@pydantic/genai-prices";
import { describe, expect, it } from "vitest";
import { MODEL_CATALOGUE } from "../../../src/core/models/catalogue-data";

const KEPT_DIFFERENT: Record<string, string> = {
  // The dataset gives the 1M window of the long-context option; a request without its beta header has 200k.
  "anthropic/claude-opus-4-6": "200k without the 1M context option",
  "anthropic/claude-sonnet-4-6": "200k without the 1M context option",
  // OpenAI's model pages give 1,047,576; the dataset rounds to 1,000,000.
  "openai/gpt-4.1": "exact figure of the model page",
  "openai/gpt-4.1-mini": "exact figure of the model page",
  "openai/gpt-4.1-nano": "exact figure of the model page",
  // Google's model pages give 1,048,576; the dataset rounds to 1,000,000.
  "google/gemini-2.5-flash-lite": "exact figure of the model page",
  "google/gemini-3-flash-preview": "exact figure of the model page",
};

function datasetWindow(provider: string, id: string): number | undefined {
  try {
    return calcPrice({ input_tokens: 1, output_tokens: 1 }, id, { providerId: provider })?.model.context_window;
  } catch {
    return undefined;
  }
}

describe("catalogue context windows", () => {
  it("agree with the price dataset's wherever it records one, but for the differences kept on purpose", () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const entry of MODEL_CATALOGUE) {
      const window = datasetWindow(entry.provider, entry.id);
      if (window === undefined) continue;
      compared += 1;
      const key = `${entry.provider}/${entry.id}`;
      if (window !== entry.contextWindow && !KEPT_DIFFERENT[key]) disagreements.push(`${key}: ours ${entry.contextWindow}, dataset ${window}`);
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(20);
  });

  it("lists no kept difference that has gone away", () => {
    for (const key of Object.keys(KEPT_DIFFERENT)) {
      const [provider, id] = key.split("/") as [string, string];
      const entry = MODEL_CATALOGUE.find((item) => item.provider === provider && item.id === id)!;
      expect(datasetWindow(provider, id), key).not.toBe(entry.contextWindow);
    }
  });
});
