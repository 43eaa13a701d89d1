// The analysis of the open session (turns, timeline, compactions): the page's first call after
// every open, kept while the options stay the same; and what changed in it when the session the
// page shows grew while its file is read (a later view of the entries read so far, then the whole
// file), so the page is sent the new rows, not every turn again.
import type { PipelineOptions } from "../core/model";
import type { SessionAnalysis } from "../core/session/pipeline";
import { analysisDelta, type AnalysisDelta } from "../app/analysisDelta";
import { handlerKit, type HandlerTable } from "./handlers";
import { optionsKey, type SessionHost } from "./sessionHost";
import { madeFor, type MadeFor } from "./madeFor";

/**
 * The analysis with the session and options it was made for (the page drops one that is not for
 * what it shows) and its serial number (what a later delta names as the analysis it extends).
 */
type SessionAnalysisFor = SessionAnalysis & { madeFor: MadeFor; sentId: number };

/**
 * What changed since the analysis the worker last sent (`baseId`): null when it sent none for
 * these options, and the page asks for the whole analysis.
 */
interface AnalysisGrowth {
  madeFor: MadeFor;
  growth: { delta: AnalysisDelta; baseId: number; sentId: number } | null;
}

export interface AnalysisMethods {
  analyze: { params: { options: PipelineOptions }; result: SessionAnalysisFor };
  analyzeGrowth: { params: { options: PipelineOptions }; result: AnalysisGrowth };
}

export function analysisHandlers(host: SessionHost): HandlerTable<AnalysisMethods> {
  const { ofSession } = handlerKit(host);
  return {
    analyze: ofSession({ stage: "analysing the session (turns and timeline)" }, ({ options }, { target, runId }) => {
      const value = host.analyze(target, options);
      const sentId = host.noteSent(optionsKey(options), value);
      return { ...value, madeFor: madeFor(runId, options), sentId };
    }),
    analyzeGrowth: ofSession({ stage: "analysing the session (the turns read since)" }, ({ options }, { target, runId }) => {
      const key = optionsKey(options);
      const before = host.sentAnalysis;
      if (before?.key !== key) return { madeFor: madeFor(runId, options), growth: null };
      const value = host.analyze(target, options);
      const delta = analysisDelta(before.value, value);
      return { madeFor: madeFor(runId, options), growth: { delta, baseId: before.id, sentId: host.noteSent(key, value) } };
    }),
  };
}
