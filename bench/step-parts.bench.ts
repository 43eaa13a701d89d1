// Where the worker's part of a step goes, outside the browser: the session read with its large
// texts kept as bytes (as the page's worker keeps them; `--text` reads them as strings), then for
// each of the first turns, in order, what the Request view's call does
// (src/features/request/worker.ts), each part timed; `requestView` writes the JSON text as the
// worker does (a RequestJsonFormatter kept over the steps), `requestView whole` as
// formatRequestJson alone would. A tracing aid, not a timed assertion:
// `./node_modules/.bin/tsx bench/step-parts.bench.ts <session.jsonl> [--steps 30] [--text]`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { PipelineOptions } from "../src/core/model";
import { readSessionText } from "../src/core/session/read";
import { loadAnySession } from "../src/cli/inputs";
import { buildTurnRequest, messageCharsEstimator, analyzeSession } from "../src/core/session/pipeline";
import { requestDumpLines } from "../src/core/session/storage";
import { windowFromSession } from "../src/core/session/simulate/index";
import { requestView } from "../src/features/request/requestModel";
import { RequestJsonFormatter } from "../src/features/request/requestJson";
import { linkThreadCalls } from "../src/features/threads/worker";

const file = process.argv[2]!;
const at = process.argv.indexOf("--steps");
const steps = at > 0 ? Number(process.argv[at + 1]) : 30;
const session = process.argv.includes("--text")
  ? readSessionText(readFileSync(file, "utf8"), path.basename(file))
  : await loadAnySession({ stdout: () => undefined, stderr: () => undefined, readFile: (name) => new Uint8Array(readFileSync(name)) }, file);
const options: PipelineOptions = { api: null, header: null, leafId: null, notes: false };
const turns = analyzeSession(session, options).turns.length;
const formatter = new RequestJsonFormatter();
const parts = new Map<string, number[]>();
const time = <T>(name: string, run: () => T): T => {
  const start = performance.now();
  const value = run();
  const list = parts.get(name) ?? [];
  list.push(performance.now() - start);
  parts.set(name, list);
  return value;
};
for (let turn = 1; turn <= Math.min(steps, turns); turn++) {
  const built = time("buildTurnRequest", () => buildTurnRequest(session, options, turn));
  const chars = time("messageCharsEstimator", () => messageCharsEstimator(session, options));
  const view = time("requestView", () => requestView(turn, built, chars, (body) => formatter.format(body)));
  time("requestView whole", () => requestView(turn, built, chars));
  time("windowFromSession", () => windowFromSession(session, options, built.model));
  time("linkThreadCalls", () => linkThreadCalls(view, built.messages, session, options));
  time("requestDumpLines", () => requestDumpLines(session, options, turn));
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
for (const [name, list] of parts) console.log(`${name.padEnd(24)} median ${median(list).toFixed(1)} ms, first ${list[0]!.toFixed(1)} ms, max ${Math.max(...list).toFixed(1)} ms`);
