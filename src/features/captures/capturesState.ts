// Captured provider requests the user attaches: a main request becomes the header (session
// constants, model facts) or one of the further captures; a pi summariser request fills the
// compaction instruction slots. Also the selected turn's diff against the capture matched to it.
import type { CaptureDiffResult } from "../../app/captureCheck";
import type { WireVerification } from "../../app/captureVerify";
import type { CompactionInstructions } from "../../core/session/index";
import type { RequestHeader } from "../../core/model";
import { isStale } from "../../worker/client";
import type { ParsedCapture } from "./protocol";
import { updateOptions } from "../../page/options";
import { getAppState, setAppState, useAppStore } from "../../page/store";
import { errorMessage, pipeline, pipelineOptions } from "../../page/workerBridge";
import { isFactsFileHead } from "../../core/captures/factsFile";
import { saveTextFile } from "../../ui/download";

/** Captured request bodies above this size are refused (they are a few hundred KB in practice). */
const MAX_HEADER_BYTES = 32 * 1024 * 1024;

export async function attachHeaderFile(file: File): Promise<void> {
  if (file.size > MAX_HEADER_BYTES) {
    setAppState({ headerError: `"${file.name}" is too large for a captured request (${file.size} bytes).` });
    return;
  }
  if (isFactsFileHead(await file.slice(0, 256).text())) {
    await attachFactsFile(file);
    return;
  }
  try {
    const header = await pipeline().call("parseHeader", { data: file, source: file.name }, "header");
    setAppState({ headerError: null });
    updateOptions({ header });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ headerError: errorMessage(error) });
  }
}

/**
 * A facts file (what captures of the same agent version taught, saved earlier): its first model's
 * header and the others' replace the attached captures. One learnt from another agent is refused;
 * one of another version is used, with a note naming both versions.
 */
async function attachFactsFile(file: File): Promise<void> {
  try {
    const facts = await pipeline().call("readFacts", { options: pipelineOptions(), data: file, source: file.name }, "facts");
    setAppState({ headerError: null, factsNote: facts.warning ? `${file.name}: ${facts.warning}` : null });
    updateOptions({ header: facts.header, captures: facts.captures });
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ headerError: errorMessage(error) });
  }
}

/** Saves what the attached captures taught as a facts file, for later sessions of the same agent version. */
export async function saveFactsFile(): Promise<void> {
  try {
    const made = await pipeline().call("factsFile", { options: pipelineOptions() }, "facts-file");
    saveTextFile(made.fileName, made.text, "application/json");
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ headerError: errorMessage(error) });
  }
}

export function clearHeader(): void {
  setAppState({ headerError: null, factsNote: null });
  updateOptions({ header: null, captures: [] });
}

/**
 * A main-request capture dropped with others: the first becomes the header (session constants),
 * the others are kept as further captures (model facts of their models; matched to their turns
 * for the capture diff). A capture of a source already attached replaces it.
 */
function addMainCapture(header: RequestHeader): void {
  const { options } = getAppState();
  if (!options.header || options.header.source === header.source) {
    updateOptions({ header });
    return;
  }
  updateOptions({ captures: [...options.captures.filter((item) => item.source !== header.source), header] });
}

/**
 * Reads a captured request in the worker. A summariser request comes back with its slots merged
 * into those filled so far; should those change meanwhile (another capture attached, the slots
 * cleared), it is asked again with the new ones, so that no attachment is lost.
 */
async function parseCaptureFile(file: File): Promise<ParsedCapture> {
  for (;;) {
    const filled = getAppState().options.compactionInstructions;
    const parsed = await pipeline().call("parseCapture", { data: file, source: file.name, instructions: filled }, `capture-${file.name}`);
    if (parsed.kind !== "compaction" || getAppState().options.compactionInstructions === filled) return parsed;
  }
}

/**
 * Attaches captured summariser requests (PI-K20 … PI-K27): each fills the instruction slot it
 * carries; earlier attachments keep their slots (the first capture of a slot wins).
 */
export async function attachCompactionCaptures(files: File[]): Promise<void> {
  for (const file of files) {
    if (file.size > MAX_HEADER_BYTES) {
      setAppState({ compactionCaptureError: `"${file.name}" is too large for a captured request (${file.size} bytes).` });
      continue;
    }
    try {
      const parsed = await parseCaptureFile(file);
      if (parsed.kind !== "compaction") {
        setAppState({
          compactionCaptureError: `"${file.name}" is not a pi summariser request (system prompt and one "<conversation>" user message, no tools).`,
        });
        continue;
      }
      setCompactionInstructions(parsed.merged);
    } catch (error) {
      if (isStale(error)) return;
      setAppState({ compactionCaptureError: errorMessage(error) });
    }
  }
}

/** The slots filled with a new capture's (merged by the worker into those filled before). */
function setCompactionInstructions(merged: CompactionInstructions): void {
  setAppState({ compactionCaptureError: null });
  updateOptions({ compactionInstructions: merged });
}

export function clearCompactionCaptures(): void {
  setAppState({ compactionCaptureError: null });
  updateOptions({ compactionInstructions: null });
}

/**
 * A dropped `.json` capture: a pi summariser request fills the compaction instruction slots;
 * anything else becomes the request header.
 */
export async function attachDroppedCapture(file: File): Promise<void> {
  if (file.size > MAX_HEADER_BYTES) {
    setAppState({ headerError: `"${file.name}" is too large for a captured request (${file.size} bytes).` });
    return;
  }
  try {
    const parsed = await parseCaptureFile(file);
    if (parsed.kind === "compaction") setCompactionInstructions(parsed.merged);
    else if (parsed.kind === "facts") await attachFactsFile(file);
    else {
      setAppState({ headerError: null });
      addMainCapture(parsed.header);
    }
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ headerError: errorMessage(error) });
  }
}

/** The selected turn against the attached capture matched to it; null when none matches it. */
export async function loadCaptureDiff(turn: number): Promise<CaptureDiffResult | null> {
  return pipeline().call("captureDiff", { options: pipelineOptions(), turn }, "capture-diff");
}

/**
 * Calls `listener` with the session verified against its attached captures whenever the analysis
 * changes (a new session, captures attached or removed), and with null when none is attached.
 */
export function watchWireVerification(listener: (verification: WireVerification | null) => void): () => void {
  return useAppStore.subscribe((state, previous) => {
    if (state.analysis === previous.analysis) return;
    if (!state.analysis || !state.options.header) {
      listener(null);
      return;
    }
    pipeline()
      .call("verifyCaptures", { options: pipelineOptions() }, "verify-captures")
      .then(listener, (error: unknown) => {
        if (!isStale(error)) listener(null);
      });
  });
}
