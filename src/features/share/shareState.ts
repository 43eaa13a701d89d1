// Export and share: the state of the Share dialog and the Export panel, and the actions
// behind their buttons. Everything is computed by the worker (src/app/shareExport.ts): the
// export text is the Request view's own formatter output, the link is built and sized there, and
// redaction runs there. This thread only downloads, copies and renders the review list.
import { create } from "zustand";
import { isStale } from "../../worker/client";
import type { ExportFormat, ExportResult, ExportTarget, ShareParams, ShareResult } from "../../app/shareExport";
import { pipeline, pipelineOptions } from "../../page/workerBridge";
import { saveTextFile } from "../../ui/download";
import { selectedTurnNumber } from "../../page/selectors";
import { getAppState } from "../../page/store";
import { useSimulatorStore } from "../simulator/simulatorState";
import { encodeSimulatorShare } from "../simulator/simulatorShare";

type Status = "idle" | "building" | "ready" | "error";

export interface ShareUiState {
  shareOpen: boolean;
  scope: "branch" | "full";
  shareRedact: boolean;
  shareUnmasked: string[];
  shareStatus: Status;
  share: ShareResult | null;
  /** The whole link (page URL + fragment), null until built. */
  shareLink: string | null;
  shareError: string | null;

  exportTarget: ExportTarget | null;
  exportRedact: boolean;
  exportUnmasked: string[];
  exportStatus: Status;
  exportJson: ExportResult | null;
  exportError: string | null;
  /** Last copy/download done, for a short confirmation next to the buttons. */
  notice: string | null;
}

export const useShareStore = create<ShareUiState>()(() => ({
  shareOpen: false,
  scope: "branch",
  shareRedact: true,
  shareUnmasked: [],
  shareStatus: "idle",
  share: null,
  shareLink: null,
  shareError: null,
  exportTarget: null,
  exportRedact: true,
  exportUnmasked: [],
  exportStatus: "idle",
  exportJson: null,
  exportError: null,
  notice: null,
}));

const setShare = useShareStore.setState;
const getShare = useShareStore.getState;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The page's URL without query and fragment: what a link's fragment is appended to. */
function pageUrl(): string {
  return `${window.location.origin}${window.location.pathname}`;
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    setShare({ notice: `${what} copied.` });
  } catch (error) {
    setShare({ notice: `Could not copy ${what.toLowerCase()}: ${message(error)}` });
  }
}

// ---------------------------------------------------------------------------------------------
// Share

function shareParams(): ShareParams {
  const app = getAppState();
  const { scope, shareRedact, shareUnmasked } = getShare();
  return {
    turn: selectedTurnNumber(app),
    tab: app.activeTab,
    scope,
    redact: shareRedact,
    unmasked: shareUnmasked,
    pageUrlChars: pageUrl().length,
    simulation: sharedSimulation(),
    instructions: app.options.compactionInstructions,
  };
}

/** The Simulate panel's settings when it shows a simulation (the link then reopens it). */
function sharedSimulation(): ShareParams["simulation"] {
  const sim = useSimulatorStore.getState();
  return sim.open && sim.simulationSettings ? encodeSimulatorShare(sim.simulationSettings) : null;
}

async function rebuildShare(): Promise<void> {
  setShare({ shareStatus: "building", shareError: null });
  try {
    const share = await pipeline().call("buildShare", { options: pipelineOptions(), params: shareParams() }, "share");
    setShare({ shareStatus: "ready", share, shareLink: share.fragment ? `${pageUrl()}${share.fragment}` : null });
  } catch (error) {
    if (isStale(error)) return;
    setShare({ shareStatus: "error", shareError: message(error), share: null, shareLink: null });
  }
}

export function openShareDialog(): void {
  if (!getAppState().session) return;
  // Each dialog starts safe: redaction on, nothing unmasked.
  setShare({ shareOpen: true, scope: "branch", shareRedact: true, shareUnmasked: [], share: null, shareLink: null, notice: null });
  void rebuildShare();
}

export function closeShareDialog(): void {
  setShare({ shareOpen: false, share: null, shareLink: null, shareStatus: "idle", shareUnmasked: [] });
}

export function setShareScope(scope: "branch" | "full"): void {
  setShare({ scope });
  void rebuildShare();
}

export function setShareRedact(redact: boolean): void {
  setShare({ shareRedact: redact, shareUnmasked: [] });
  void rebuildShare();
}

/** Keeps one masked value visible in the link (after the user confirmed), or masks it again. */
export function setShareUnmasked(id: string, unmasked: boolean): void {
  const current = getShare().shareUnmasked.filter((item) => item !== id);
  setShare({ shareUnmasked: unmasked ? [...current, id] : current });
  void rebuildShare();
}

export function copyShareLink(): Promise<void> {
  const link = getShare().shareLink;
  return link ? copyText(link, "Link") : Promise.resolve();
}

export async function downloadShareBundle(): Promise<void> {
  try {
    const bundle = await pipeline().call("shareBundle", { options: pipelineOptions(), params: shareParams() }, "bundle");
    saveTextFile(bundle.fileName, bundle.text, "application/json");
    setShare({ notice: `Saved ${bundle.fileName}.` });
  } catch (error) {
    if (isStale(error)) return;
    setShare({ shareError: message(error) });
  }
}

// ---------------------------------------------------------------------------------------------
// Export

export function exportTargetKey(target: ExportTarget | null): string {
  if (!target) return "";
  if (target.kind === "simulation") return `simulation:${JSON.stringify(target.simulation)}`;
  return target.kind === "turn" ? `turn:${target.turn}` : `compaction:${target.entryId}:${target.index}`;
}

function exportCall(format: ExportFormat): Promise<ExportResult> {
  const { exportTarget, exportRedact, exportUnmasked } = getShare();
  if (!exportTarget) return Promise.reject(new Error("Nothing to export."));
  const instructions = getAppState().options.compactionInstructions;
  return pipeline().call(
    "exportRequest",
    { options: pipelineOptions(), params: { target: exportTarget, format, redact: exportRedact, unmasked: exportUnmasked, instructions } },
    `export-${format}`,
  );
}

async function refreshExport(): Promise<void> {
  setShare({ exportStatus: "building", exportError: null });
  try {
    const exportJson = await exportCall("json");
    setShare({ exportStatus: "ready", exportJson });
  } catch (error) {
    if (isStale(error)) return;
    setShare({ exportStatus: "error", exportError: message(error), exportJson: null });
  }
}

/** Opens the Export panel for a target (toggles it closed when already open for the same one). */
export function toggleExportPanel(target: ExportTarget): void {
  if (exportTargetKey(getShare().exportTarget) === exportTargetKey(target)) {
    closeExportPanel();
    return;
  }
  setShare({ exportTarget: target, exportRedact: true, exportUnmasked: [], exportJson: null, notice: null });
  void refreshExport();
}

export function closeExportPanel(): void {
  setShare({ exportTarget: null, exportJson: null, exportStatus: "idle", exportUnmasked: [] });
}

export function setExportRedact(redact: boolean): void {
  setShare({ exportRedact: redact, exportUnmasked: [] });
  void refreshExport();
}

export function setExportUnmasked(id: string, unmasked: boolean): void {
  const current = getShare().exportUnmasked.filter((item) => item !== id);
  setShare({ exportUnmasked: unmasked ? [...current, id] : current });
  void refreshExport();
}

export function downloadExportJson(): void {
  const result = getShare().exportJson;
  if (!result) return;
  saveTextFile(result.fileName, result.text, "application/json");
  setShare({ notice: `Saved ${result.fileName}.` });
}

export function copyExportJson(): Promise<void> {
  const result = getShare().exportJson;
  return result ? copyText(result.text, "JSON") : Promise.resolve();
}

export async function copyExportCurl(): Promise<void> {
  try {
    const curl = await exportCall("curl");
    await copyText(curl.text, "curl command");
  } catch (error) {
    if (isStale(error)) return;
    setShare({ exportError: message(error) });
  }
}

