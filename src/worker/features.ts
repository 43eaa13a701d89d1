// The pipeline worker's composition: every feature's calls in one table, and the openers of the
// sources features read for the open feature. This is the one place the worker side names the
// features; the page learns the methods' types from here (type-only), and each call's stage
// name from the worker itself when it starts.
import { analysisHandlers, type AnalysisMethods } from "./analysisCalls";
import type { Handler, HandlerTable } from "./handlers";
import type { SessionHost } from "./sessionHost";
import { auxiliaryHandlers, type AuxiliaryMethods } from "../features/auxiliary/worker";
import { capturesHandlers, type CapturesMethods } from "../features/captures/worker";
import { compactionHandlers, type CompactionMethods } from "../features/compaction/worker";
import { compareHandlers, type CompareMethods } from "../features/compare/worker";
import { conversationHandlers, type ConversationMethods } from "../features/conversation/worker";
import { exportHandlers, type ExportMethods } from "../features/export/worker";
import { followedSourceOpener, liveHandlers, type LiveMethods } from "../features/live/worker";
import { openHandlers, type OpenMethods, type SourceOpener } from "../features/open/worker";
import { prefixHandlers, type PrefixMethods } from "../features/prefix/worker";
import { pricesHandlers, type PricesMethods } from "../features/prices/worker";
import { requestHandlers, type RequestMethods } from "../features/request/worker";
import { searchHandlers, type SearchMethods } from "../features/search/worker";
import { shareHandlers, sharedSourceOpener, type ShareMethods } from "../features/share/worker";
import { simulatorHandlers, type SimulatorMethods } from "../features/simulator/worker";
import { threadsHandlers, type ThreadsMethods } from "../features/threads/worker";

export { PrefixPassAbandoned } from "../features/prefix/worker";
export { openSource } from "../features/open/worker";

/** Request/response calls the worker answers, by method name. */
export type WorkerMethods = AnalysisMethods &
  OpenMethods &
  RequestMethods &
  ConversationMethods &
  ThreadsMethods &
  CapturesMethods &
  CompactionMethods &
  AuxiliaryMethods &
  ExportMethods &
  ShareMethods &
  PrefixMethods &
  SimulatorMethods &
  CompareMethods &
  SearchMethods &
  PricesMethods &
  LiveMethods;
export type WorkerMethod = keyof WorkerMethods;

/** Every call the worker answers. */
export type WorkerHandlers = HandlerTable<WorkerMethods>;

export function composeHandlers(host: SessionHost): WorkerHandlers {
  return {
    ...analysisHandlers(host),
    ...openHandlers(host),
    ...requestHandlers(host),
    ...conversationHandlers(host),
    ...threadsHandlers(host),
    ...capturesHandlers(host),
    ...compactionHandlers(host),
    ...auxiliaryHandlers(host),
    ...exportHandlers(host),
    ...shareHandlers(host),
    ...prefixHandlers(host),
    ...simulatorHandlers(host),
    ...compareHandlers(host),
    ...searchHandlers(host),
    ...pricesHandlers(host),
    ...liveHandlers(host),
  };
}

/** The sources other features read for the open feature, asked in this order. */
export function sourceOpeners(host: SessionHost): SourceOpener[] {
  return [sharedSourceOpener, followedSourceOpener(host)];
}

/** Each method's stage name, for the page's watchdog message. */
export function stageNames(handlers: WorkerHandlers): Record<WorkerMethod, string> {
  const names = {} as Record<WorkerMethod, string>;
  for (const method of Object.keys(handlers) as WorkerMethod[]) names[method] = (handlers[method] as Handler<unknown, unknown>).stage;
  return names;
}
