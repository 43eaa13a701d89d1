// The prefix feature in the pipeline worker: every turn's prefix report (the estimate pass, then
// the exact one), the Diff and Tokens tabs and the context composition over the session. The
// exact counts are made by counting workers beside this one, one pool per open session.
import { loadTokenizerTables } from "../../core/tokens/tables";
import { interactiveHoldMs } from "../../app/interactiveQuiet";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import { optionsKey, type SessionHost, type SessionSlot } from "../../worker/sessionHost";
import { tablesForPass } from "../../worker/tokenTables";
import { madeFor } from "../../worker/madeFor";
import { createBrowserTokenPool, tokenPoolSize, type BrowserTokenPool } from "../../worker/tokenPool";
import { PrefixService } from "./prefixService";
import type { PrefixMethods } from "./protocol";

export { PrefixPassAbandoned } from "./prefixService";
export type { PrefixMethods } from "./protocol";

/** The open session's counting workers (one pool whatever thread is shown); null where workers cannot start workers. */
const COUNTING_WORKERS: SessionSlot<BrowserTokenPool | null> = {
  scope: "run",
  make: () =>
    typeof Worker === "undefined"
      ? null
      : createBrowserTokenPool(
          tokenPoolSize(navigator.hardwareConcurrency),
          () => new Worker(new URL("../../worker/count.worker.ts", import.meta.url), { type: "module", name: "contextscope-count" }),
          interactiveHoldMs,
        ),
  // A followed session that grows keeps its workers; counts of another session are not needed again.
  grow: (pool) => pool,
  dispose: (pool) => pool?.close(),
};

export function prefixHandlers(host: SessionHost): HandlerTable<PrefixMethods> {
  const { ofSession } = handlerKit(host);
  /** Prefix work of `target`: the open session or one of its threads (a new service per thread shown). */
  const PREFIX: SessionSlot<PrefixService> = {
    make: (target, isCurrent, detached) => new PrefixService(target, isCurrent, detached ? null : host.serviceFor(COUNTING_WORKERS, target)),
    // The passes finished or running go on with the new turns (their rows are extended).
    grow: (service, next) => {
      service.grow(next);
      return service;
    },
  };
  const prefixFor = (target: Parameters<typeof host.serviceFor>[1]) => host.serviceFor(PREFIX, target);
  return {
    prefixReports: ofSession({ stage: "prefix analysis", tables: "session's", background: true }, async ({ options, pass }, { target, runId }) => {
      const analysis = host.analyze(target, options);
      const service = prefixFor(target);
      // The counting workers count the exact pass's tokens when there are some.
      if (!service.countsElsewhere) await loadTokenizerTables(tablesForPass(pass, analysis, options));
      const rows = await service.reports(options, pass, analysis, optionsKey(options));
      return { pass, rows, madeFor: madeFor(runId, options) };
    }),
    turnDiff: ofSession({ stage: "comparing two turns (diff)", tables: "session's" }, async ({ options, turn }, { target }) => {
      const analysis = host.analyze(target, options);
      // The diff counts both requests with the session's own counters ("auto").
      await loadTokenizerTables(tablesForPass("exact", analysis, options));
      return prefixFor(target).turnDiff(options, turn, analysis, optionsKey(options));
    }),
    tokenComposition: ofSession({ stage: "counting tokens", tables: "session's" }, async ({ options, turn, pass }, { target }) => {
      await loadTokenizerTables(tablesForPass(pass, host.analyze(target, options), options));
      return prefixFor(target).composition(options, turn, pass);
    }),
    tokenView: ofSession({ stage: "showing the tokens of a message", tables: "o200k" }, ({ options, turn, index }, { target }) => prefixFor(target).tokenView(options, turn, index)),
    sessionComposition: ofSession({ stage: "measuring what fills the context over the session", background: true }, async ({ options }, { target }) => ({
      rows: await prefixFor(target).sessionComposition(options, optionsKey(options), host.analyze(target, options)),
    })),
  };
}
