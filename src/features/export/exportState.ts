// Export: the state of the Export panel and the actions behind its buttons. The worker formats
// the request (src/app/shareExport.ts) with the Request view's own formatter and redacts it; this
// thread only downloads, copies and renders the review list.
import { create } from "zustand";
import { isStale } from "../../worker/client";
import type { ExportFormat, ExportResult, ExportTarget } from "../../app/shareExport";
import { pipeline, pipelineOptions } from "../../page/workerBridge";
import { saveTextFile } from "../../ui/download";
import { getAppState } from "../../page/store";

type Status = "idle" | "building" | "ready" | "error";

interface ExportUiState {
  exportTarget: ExportTarget | null;
  exportRedact: boolean;
  exportUnmasked: string[];
  exportStatus: Status;
  exportJson: ExportResult | null;
  exportError: string | null;
  /** Last copy/download done, for a short confirmation next to the buttons. */
  notice: string | null;
}

export const useExportStore = create<ExportUiState>()(() => ({
  exportTarget: null,
  exportRedact: true,
  exportUnmasked: [],
  exportStatus: "idle",
  exportJson: null,
  exportError: null,
  notice: null,
}));

const setExport = useExportStore.setState;
const getExport = useExportStore.getState;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    setExport({ notice: `${what} copied.` });
  } catch (error) {
    setExport({ notice: `Could not copy ${what.toLowerCase()}: ${message(error)}` });
  }
}

export function exportTargetKey(target: ExportTarget | null): string {
  if (!target) return "";
  if (target.kind === "simulation") return `simulation:${JSON.stringify(target.simulation)}`;
  return target.kind === "turn" ? `turn:${target.turn}` : `compaction:${target.entryId}:${target.index}`;
}

function exportCall(format: ExportFormat): Promise<ExportResult> {
  const { exportTarget, exportRedact, exportUnmasked } = getExport();
  if (!exportTarget) return Promise.reject(new Error("Nothing to export."));
  const instructions = getAppState().options.compactionInstructions;
  return pipeline().call(
    "exportRequest",
    { options: pipelineOptions(), params: { target: exportTarget, format, redact: exportRedact, unmasked: exportUnmasked, instructions } },
    `export-${format}`,
  );
}

async function refreshExport(): Promise<void> {
  setExport({ exportStatus: "building", exportError: null });
  try {
    const exportJson = await exportCall("json");
    setExport({ exportStatus: "ready", exportJson });
  } catch (error) {
    if (isStale(error)) return;
    setExport({ exportStatus: "error", exportError: message(error), exportJson: null });
  }
}

/** Opens the Export panel for a target (toggles it closed when already open for the same one). */
export function toggleExportPanel(target: ExportTarget): void {
  if (exportTargetKey(getExport().exportTarget) === exportTargetKey(target)) {
    closeExportPanel();
    return;
  }
  setExport({ exportTarget: target, exportRedact: true, exportUnmasked: [], exportJson: null, notice: null });
  void refreshExport();
}

export function closeExportPanel(): void {
  setExport({ exportTarget: null, exportJson: null, exportStatus: "idle", exportUnmasked: [] });
}

export function setExportRedact(redact: boolean): void {
  setExport({ exportRedact: redact, exportUnmasked: [] });
  void refreshExport();
}

export function setExportUnmasked(id: string, unmasked: boolean): void {
  const current = getExport().exportUnmasked.filter((item) => item !== id);
  setExport({ exportUnmasked: unmasked ? [...current, id] : current });
  void refreshExport();
}

export function downloadExportJson(): void {
  const result = getExport().exportJson;
  if (!result) return;
  saveTextFile(result.fileName, result.text, "application/json");
  setExport({ notice: `Saved ${result.fileName}.` });
}

/**
 * Saves the whole session (every thread) as an OpenTelemetry trace: the file `contextscope export
 * --format otlp` writes, redacted as the panel says (request contents are left out, as by default there).
 */
export async function downloadExportTrace(): Promise<void> {
  const { exportRedact, exportUnmasked } = getExport();
  try {
    const trace = await pipeline().call("exportTrace", { options: pipelineOptions(), params: { redact: exportRedact, unmasked: exportUnmasked, contents: false } }, "export-trace");
    saveTextFile(trace.fileName, trace.text, "application/json");
    setExport({ notice: `Saved ${trace.fileName} (${trace.spans} spans).` });
  } catch (error) {
    if (isStale(error)) return;
    setExport({ exportError: message(error) });
  }
}

/**
 * Saves the main thread's conversation as a Hugging Face session trace: the file `contextscope
 * export --format sts` writes, redacted as the panel says.
 */
export async function downloadExportSessionTrace(): Promise<void> {
  const { exportRedact, exportUnmasked } = getExport();
  try {
    const trace = await pipeline().call("exportSessionTrace", { options: pipelineOptions(), params: { redact: exportRedact, unmasked: exportUnmasked } }, "export-sts");
    saveTextFile(trace.fileName, trace.text, "application/jsonl");
    setExport({ notice: `Saved ${trace.fileName} (${trace.messages} messages).` });
  } catch (error) {
    if (isStale(error)) return;
    setExport({ exportError: message(error) });
  }
}

export function copyExportJson(): Promise<void> {
  const result = getExport().exportJson;
  return result ? copyText(result.text, "JSON") : Promise.resolve();
}

export async function copyExportCurl(): Promise<void> {
  try {
    const curl = await exportCall("curl");
    await copyText(curl.text, "curl command");
  } catch (error) {
    if (isStale(error)) return;
    setExport({ exportError: message(error) });
  }
}
