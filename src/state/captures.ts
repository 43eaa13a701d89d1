// Captured provider requests the user attaches: a main request becomes the header (session
// constants, model facts) or one of the further captures; a pi summariser request fills the
// compaction instruction slots. Also the selected turn's diff against the capture matched to it.
import type { CaptureDiffResult } from "../app/captureCheck";
import { mergeCompactionInstructions } from "../core/agents/pi/compaction/instructions";
import type { RequestHeader } from "../core/model";
import { isStale } from "../worker/client";
import { updateOptions } from "./options";
import { getAppState, setAppState } from "./store";
import { errorMessage, pipeline, pipelineOptions } from "./workerBridge";

/** Captured request bodies above this size are refused (they are a few hundred KB in practice). */
const MAX_HEADER_BYTES = 32 * 1024 * 1024;

export async function attachHeaderFile(file: File): Promise<void> {
  if (file.size > MAX_HEADER_BYTES) {
    setAppState({ headerError: `"${file.name}" is too large for a captured request (${file.size} bytes).` });
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

export function clearHeader(): void {
  setAppState({ headerError: null });
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
      const parsed = await pipeline().call("parseCapture", { data: file, source: file.name }, `capture-${file.name}`);
      if (parsed.kind !== "compaction") {
        setAppState({
          compactionCaptureError: `"${file.name}" is not a pi summariser request (system prompt and one "<conversation>" user message, no tools).`,
        });
        continue;
      }
      addCompactionInstructions(parsed.captured.instructions);
    } catch (error) {
      if (isStale(error)) return;
      setAppState({ compactionCaptureError: errorMessage(error) });
    }
  }
}

function addCompactionInstructions(instructions: Parameters<typeof mergeCompactionInstructions>[0]): void {
  const merged = mergeCompactionInstructions(getAppState().options.compactionInstructions, instructions);
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
    const parsed = await pipeline().call("parseCapture", { data: file, source: file.name }, `capture-${file.name}`);
    if (parsed.kind === "compaction") addCompactionInstructions(parsed.captured.instructions);
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
