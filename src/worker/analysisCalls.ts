// The analysis of the open session (turns, timeline, compactions): the page's first call after
// every open, kept while the options stay the same.
import type { PipelineOptions } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import { handlerKit, type HandlerTable } from "./handlers";
import { optionsKey, type SessionHost } from "./sessionHost";
import { madeFor, type MadeFor } from "./madeFor";

/** The analysis with the session and options it was made for (the page drops one that is not for what it shows). */
type SessionAnalysisFor = SessionAnalysis & { madeFor: MadeFor };

export interface AnalysisMethods {
  analyze: { params: { options: PipelineOptions }; result: SessionAnalysisFor };
}

export function analysisHandlers(host: SessionHost): HandlerTable<AnalysisMethods> {
  const { ofSession } = handlerKit(host);
  return {
    analyze: ofSession({ stage: "analysing the session (turns and timeline)" }, ({ options }, { target, runId }) => {
      const value = host.analyze(target, options);
      host.sentAnalysis = { key: optionsKey(options), value };
      return { ...value, madeFor: madeFor(runId, options) };
    }),
  };
}
