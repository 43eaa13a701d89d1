// Which tokenizer tables a session's analysis needs: those of the counters its request shapes use
// (tablesFor), so an OpenAI-only session never loads the Claude vocabulary, an Anthropic one
// with the default tokenizer never loads o200k, and `--tokenizer estimate` loads none.
import type { ApiId, PipelineOptions } from "../model";
import type { SessionAnalysis } from "../session/pipeline";
import type { TokenizerChoice } from "./counters";
import { tablesFor, type TokenizerTable } from "./tables";

export function sessionTables(tokenizer: TokenizerChoice, analysis: SessionAnalysis, pipeline: PipelineOptions): TokenizerTable[] {
  const apis = new Set<ApiId>();
  for (const turn of analysis.turns) {
    // A turn whose shape is not recorded is built with a default one: load every table.
    if (turn.api === null) return tablesFor(tokenizer);
    apis.add(turn.api);
  }
  if (pipeline.api) apis.add(pipeline.api);
  return tablesFor(tokenizer, apis);
}
