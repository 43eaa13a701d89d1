// Share: the state of the Share dialog and the actions behind its buttons. Everything is computed
// by the worker (src/app/shareExport.ts): the link is built and sized there, and redaction runs
// there. This thread only downloads, copies and renders the review list. What a link carries
// beyond the turn, tab and scope (the Simulate panel's settings) is given by the feature that
// owns it, wired by the page's mount (./linkViewParts.ts).
import { create } from "zustand";
import { isStale } from "../../worker/client";
import type { ShareParams, ShareResult } from "../../app/shareExport";
import { pipeline, pipelineOptions } from "../../page/workerBridge";
import { saveTextFile } from "../../ui/download";
import { selectedTurnNumber } from "../../page/selectors";
import { getAppState } from "../../page/store";
import { linkViewPart } from "./linkViewParts";

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
    simulation: linkViewPart("simulation"),
    instructions: app.options.compactionInstructions,
  };
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
