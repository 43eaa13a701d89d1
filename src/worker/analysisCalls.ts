// The analysis of the open session (turns, timeline, compactions): the page's first call after
// every open, kept while the options stay the same.
import type { PipelineOptions } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import { handlerKit, type HandlerTable } from "./handlers";
import { optionsKey, type SessionHost } from "./sessionHost";

export interface AnalysisMethods {
  analyze: { params: { options: PipelineOptions }; result: SessionAnalysis };
}

export function analysisHandlers(host: SessionHost): HandlerTable<AnalysisMethods> {
  const { ofSession } = handlerKit(host);
  return {
    analyze: ofSession({ stage: "analysing the session (turns and timeline)" }, ({ options }, { target }) => {
      const value = host.analyze(target, options);
      host.sentAnalysis = { key: optionsKey(options), value };
      return value;
    }),
  };
}
