// What fills the context over the session (the stacked chart): every turn's tokens by kind, asked
// of the worker whenever a new analysis arrives (new session, options or branch) — except while
// the file is still being read: walking a provisional session would take the worker's time from
// the read, and the whole file's analysis replaces it soon.
import { create } from "zustand";
import type { TurnComposition } from "../../core/session/sessionComposition";
import { isStale } from "../../worker/client";
import { pipeline, pipelineOptions, shownKey } from "../../page/workerBridge";
import { useAppStore } from "../../page/store";

export interface CompositionState {
  key: string | null;
  rows: TurnComposition[] | null;
  error: string | null;
}

export const useCompositionStore = create<CompositionState>()(() => ({ key: null, rows: null, error: null }));

async function load(again = false): Promise<void> {
  const options = pipelineOptions();
  // The session shown is part of the key: another session with the same options has other rows.
  const key = shownKey(options);
  const shown = useCompositionStore.getState();
  if (!again && shown.key === key && shown.rows) return;
  // Asked again (the session grew), the rows shown stay until the extended ones come.
  if (!(again && shown.key === key)) useCompositionStore.setState({ key, rows: null, error: null });
  try {
    const result = await pipeline().call("sessionComposition", { options }, "composition");
    if (useCompositionStore.getState().key === key) useCompositionStore.setState({ rows: result.rows });
  } catch (error) {
    if (isStale(error) || useCompositionStore.getState().key !== key) return;
    useCompositionStore.setState({ error: error instanceof Error ? error.message : String(error) });
  }
}

/** Loads the composition after every new analysis. */
export function installCompositionLoader(): void {
  useAppStore.subscribe((state, previous) => {
    if (state.analysis && state.analysis !== previous.analysis) {
      if (state.analysisProvisional) useCompositionStore.setState({ key: null, rows: null, error: null });
      else void load();
    }
    if (!state.analysis && previous.analysis) useCompositionStore.setState({ key: null, rows: null, error: null });
  });
}

/** The followed session grew: the chart's rows are extended with its new turns (the worker keeps the earlier ones). */
export function reloadComposition(): void {
  if (useCompositionStore.getState().key !== null) void load(true);
}
