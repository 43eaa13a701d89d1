// Captured requests in the pipeline worker: a dropped or attached capture is parsed into a
// request header or a summariser capture's instruction slots, and its body is kept (by source)
// for the Request view's capture diff. Which bodies count is decided by each call's options
// (what is still attached), so the bodies outlive the session they were attached to.
import { learnCapture } from "../../core/session/captures";
import { applyFacts, factsFit, firstOfEachModel, makeFactsFile, readFactsFile, sessionAgentVersion } from "../../core/captures/factsFile";
import type { RequestHeader } from "../../core/model";
import { findAgent } from "../../core/session/agents";
import { attachedSources, captureDiffForTurn, type CaptureInput } from "../../app/captureCheck";
import { verifySession, wireVerification } from "../../app/captureVerify";
import { errorText, handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost, WorkerSlot } from "../../worker/sessionHost";
import { parseCapture } from "./parseCapture";
import type { CapturesMethods } from "./protocol";

export type { CapturesMethods } from "./protocol";

const MAX_CAPTURE_BODIES = 64;

/** Bodies of the main-request captures parsed so far, by source (the oldest forgotten past MAX_CAPTURE_BODIES). */
const CAPTURE_BODIES: WorkerSlot<Map<string, CaptureInput>> = { make: () => new Map() };

async function captureBody(data: Blob | string, source: string): Promise<unknown> {
  const text = typeof data === "string" ? data : await data.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`"${source}" is not valid JSON (${errorText(error)}). Expected a captured provider request body.`);
  }
}

export function capturesHandlers(host: SessionHost): HandlerTable<CapturesMethods> {
  const { ofSession, sessionless } = handlerKit(host);
  const bodies = () => host.keep(CAPTURE_BODIES);
  const keepCaptureBody = (source: string, body: unknown): void => {
    const kept = bodies();
    kept.delete(source);
    kept.set(source, { source, body });
    if (kept.size > MAX_CAPTURE_BODIES) kept.delete(kept.keys().next().value as string);
  };
  return {
    parseHeader: sessionless({ stage: "reading a captured request header" }, async ({ data, source }) => {
      const body = await captureBody(data, source);
      const header = learnCapture(body, source);
      keepCaptureBody(source, body);
      return header;
    }),
    parseCapture: sessionless({ stage: "reading a captured request" }, async ({ data, source, instructions }) => {
      const body = await captureBody(data, source);
      const parsed = parseCapture(body, source, instructions ?? null);
      if (parsed.kind === "header") keepCaptureBody(source, body);
      return parsed;
    }),
    readFacts: ofSession({ stage: "reading a facts file" }, async ({ data, source }, { session }) => {
      const read = readFactsFile(await data.text(), source);
      if ("problem" in read) throw new Error(read.problem);
      const fit = factsFit(read.facts, session.formatId, sessionAgentVersion(session), (id) => findAgent(id)?.label ?? id);
      if (fit.fit === "refuse") throw new Error(`"${source}" is not for this session: ${fit.message}.`);
      const applied = applyFacts(read.facts);
      const named = (header: RequestHeader): RequestHeader => ({ ...header, source: `${source} · ${header.source}` });
      if (!applied.header) throw new Error(`"${source}" holds no learnt request header.`);
      return { header: named(applied.header), captures: (applied.captures ?? []).map(named), warning: fit.fit === "warn" ? fit.message : null };
    }),
    factsFile: ofSession({ stage: "saving what the captures taught" }, ({ options }, { session }) => {
      const learnt = firstOfEachModel([options.header ?? null, ...(options.captures ?? [])].filter((header): header is RequestHeader => header !== null));
      if (learnt.length === 0) throw new Error("No captured main request is attached: there is nothing to keep.");
      const facts = makeFactsFile(session.formatId, sessionAgentVersion(session), learnt);
      const version = facts.agentVersion ? `-${facts.agentVersion}` : "";
      return { fileName: `${session.formatId}${version}.facts.json`, text: `${JSON.stringify(facts, null, 2)}\n`, models: learnt.length };
    }),
    verifyCaptures: ofSession({ stage: "verifying the captured requests" }, ({ options }, { target }) => {
      const sources = attachedSources(options);
      const attached = [...bodies().values()].filter((body) => sources.has(body.source)).map((body) => ({ ...body, kind: null }));
      return attached.length === 0 ? null : wireVerification(verifySession(target, options, attached));
    }),
    captureDiff: ofSession({ stage: "comparing a turn with its captured request" }, ({ options, turn }, { target }) => captureDiffForTurn(target, options, [...bodies().values()], turn)),
  };
}
