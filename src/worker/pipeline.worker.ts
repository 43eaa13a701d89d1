// The pipeline worker: reads sessions (streamed, cancellable), holds the parsed Session and
// answers the page's calls. All parsing and pipeline work happens here; the page only renders
// results. What it answers is the features' (src/worker/features.ts); this file runs the loop:
// an open replaces the session, a call is refused when it is about an older session, and the
// user's calls come before the background passes.
/// <reference lib="webworker" />
import { loadTokenizerTables } from "../core/tokens/tables";
import { noteInteractiveCall } from "../app/interactiveQuiet";
import { composeHandlers, openSource, PrefixPassAbandoned, sourceOpeners, stageNames, type WorkerMethod, type WorkerMethods } from "./features";
import { errorText, type Handler } from "./handlers";
import { ALIVE_EVERY_MS, type FromWorker, type ToWorker } from "./protocol";
import { SessionHost } from "./sessionHost";
import { tablesForCall } from "./tokenTables";

declare const self: DedicatedWorkerGlobalScope;

const host = new SessionHost();
const HANDLERS = composeHandlers(host);
const OPENERS = sourceOpeners(host);

function post(message: FromWorker): void {
  self.postMessage(message);
}

/** Answers one call, once the tokenizer tables it needs are loaded. */
async function answer<M extends WorkerMethod>(method: M, params: WorkerMethods[M]["params"]): Promise<WorkerMethods[M]["result"]> {
  const handler = HANDLERS[method] as Handler<WorkerMethods[M]["params"], WorkerMethods[M]["result"]>;
  await loadTokenizerTables(tablesForCall(handler.tables));
  return handler.run(params);
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case "open":
      void openSource(host, message.runId, message.source, OPENERS, post);
      break;
    case "cancel":
      if (host.activeRunId === message.runId) host.activeRunId = 0;
      break;
    case "call": {
      const { callId, method, params } = message;
      const handler = HANDLERS[method] as Handler<unknown, unknown>;
      if (!handler.background) noteInteractiveCall();
      // A call about the open session must be about the one the page holds (it is stale otherwise).
      if (handler.aboutSession && message.sessionRunId !== host.sessionRunId) {
        post({ type: "reply", callId, ok: false, error: "The session changed.", stale: true });
        break;
      }
      answer(method, params).then(
        (value) => post({ type: "reply", callId, ok: true, value }),
        (error: unknown) => post({ type: "reply", callId, ok: false, error: errorText(error), stale: error instanceof PrefixPassAbandoned }),
      );
      break;
    }
  }
};

// Everything above is loaded: the page may now count on quick answers (its first open).
post({ type: "started", stages: stageNames(HANDLERS) });
// The watchdog's sign of life: a long pass that yields is not a stuck worker.
setInterval(() => post({ type: "alive" }), ALIVE_EVERY_MS);
