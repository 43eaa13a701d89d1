// How a feature answers the page's calls in the pipeline worker. Each feature exports a table
// of handlers, one per method of its protocol; src/worker/features.ts composes the tables. A
// handler says whether the call is about the open session (refused for an older one), what the
// watchdog calls its stage, which tokenizer tables it needs loaded, and whether the page makes
// it on its own in the background (the user's calls come first).
import type { PipelineOptions, Session } from "../core/model";
import { threadSessionOf } from "../core/session/threads";
import type { SessionHost } from "./sessionHost";

/** A feature's methods: each with the params it takes and the result it answers. */
type MethodMap = { [method: string]: { params: unknown; result: unknown } };

/**
 * Which tokenizer tables a call needs before it runs:
 * - "none": the call counts chars/4 at most;
 * - "session's": the call loads itself, once it has the session, the tables its counters need
 *   for the session's request shapes (the prefix pass, the Tokens and Diff tabs);
 * - "o200k": the token view, which cuts any session's text at o200k token boundaries;
 * - "all": the call may count with either tokenizer (the simulator, exports and shares that carry
 *   token figures, the compare view).
 */
export type TablesOfCall = "none" | "session's" | "o200k" | "all";

/** What a call about the open session is given. */
export interface OpenSession {
  /** The open session, its sub-agent threads included. */
  session: Session;
  /** The thread the call's options name (its own session), else the open session. */
  target: Session;
  /** The open run that read the session (what a result says it was made for, ./madeFor.ts). */
  runId: number;
}

/** How the worker answers one call. */
export interface Handler<P, R> {
  /** A call about the open session must be about the one the page holds (it is refused as stale otherwise). */
  aboutSession: boolean;
  /** What the watchdog says the worker was doing, should the call never answer. */
  stage: string;
  tables: TablesOfCall;
  /** The page makes the call on its own; every other call is the user's, and the background passes give way to it. */
  background?: boolean;
  run(params: P): R | Promise<R>;
}

/** A feature's handlers, one per method. */
export type HandlerTable<M extends { [K in keyof M]: MethodMap[string] }> = { [K in keyof M]: Handler<M[K]["params"], M[K]["result"]> };

interface CallFacts {
  stage: string;
  tables?: TablesOfCall;
  background?: boolean;
}

function facts(of: CallFacts): Pick<Handler<unknown, unknown>, "stage" | "tables" | "background"> {
  return of.background ? { stage: of.stage, tables: of.tables ?? "none", background: true } : { stage: of.stage, tables: of.tables ?? "none" };
}

/** Makes handlers over the host's open session. */
export function handlerKit(host: SessionHost) {
  return {
    /** A call that does not depend on the open session. */
    sessionless<P, R>(of: CallFacts, run: (params: P) => R | Promise<R>): Handler<P, R> {
      return { aboutSession: false, ...facts(of), run };
    },
    /** A call about the open session's turns: a sub-agent thread in its options selects that thread's own session. */
    ofSession<P extends { options: PipelineOptions }, R>(of: CallFacts, run: (params: P, open: OpenSession) => R | Promise<R>): Handler<P, R> {
      return {
        aboutSession: true,
        ...facts(of),
        run: (params) => {
          const opened = host.openSession();
          return run(params, { session: opened, target: threadSessionOf(opened, params.options.thread), runId: host.sessionRunId });
        },
      };
    },
    /** A call that is refused without an open session, but is not about its turns (opening the compare view's second session). */
    whileSessionOpen<P, R>(of: CallFacts, run: (params: P) => R | Promise<R>): Handler<P, R> {
      return {
        aboutSession: true,
        ...facts(of),
        run: (params) => {
          host.openSession();
          return run(params);
        },
      };
    },
  };
}

/** The message of an error, for the page. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
