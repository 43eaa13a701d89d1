// The pipeline options the user changes (profile, provider, branch, thread, notes, model facts):
// each change is stored, then the open session is analysed again with it.
import type { ApiId, ModelInfo, ProfileId } from "../core/model";
import { isStale } from "../worker/client";
import { analyze } from "./analysis";
import { selectMessage, selectTurnNumber, setActiveTab } from "./selection";
import { getAppState, initialAuxiliary, initialCompaction, saveModelOverrides, setAppState, type UserOptions } from "./store";
import { errorMessage, pipeline, pipelineOptions } from "./workerBridge";

export function updateOptions(patch: Partial<UserOptions>): void {
  setAppState((state) => ({ options: { ...state.options, ...patch } }));
  if (getAppState().session) void analyze({ keepTurn: true });
}

export function setProfile(profile: ProfileId): void {
  updateOptions({ profile });
}

export function setApi(api: ApiId | null): void {
  updateOptions({ api });
}

export function setLeaf(leafId: string | null): void {
  updateOptions({ leafId });
}

/**
 * Shows a sub-agent thread of the session (its own turns and requests), or with null the main
 * thread; `turn` selects that turn of it (a link to a tool call).
 */
export function setThread(thread: string | null, turn: number | null = null): Promise<void> {
  if (getAppState().options.thread === thread) {
    if (turn !== null) selectTurnNumber(turn);
    return Promise.resolve();
  }
  setAppState((state) => ({ options: { ...state.options, thread, leafId: null }, compaction: initialCompaction, auxiliary: initialAuxiliary }));
  return getAppState().session ? analyze({ keepTurn: false, turn }) : Promise.resolve();
}

/**
 * Goes back from a sub-agent thread to the tool call that started it: the parent thread's first
 * request holding the call, on the Messages tab with the call's message selected.
 */
export async function showSpawnCall(threadId: string): Promise<void> {
  try {
    const location = await pipeline().call("spawnCall", { options: pipelineOptions(), threadId }, "spawnCall");
    if (!location) return;
    await setThread(location.threadId, location.turn);
    setActiveTab("messages");
    if (location.messageIndex !== null) selectMessage(location.turn, location.messageIndex);
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ analysisError: errorMessage(error) });
  }
}

/** senpi reply-language notes on/off (ignored by the pi profile). */
export function setNotes(notes: boolean): void {
  updateOptions({ notes });
}

/**
 * Writes (or, with null, removes) the user's edit of one model's catalogue facts, keyed
 * "provider/modelId" as PipelineOptions.modelOverrides expects, saves it and rebuilds the request.
 */
export function setModelOverride(key: string, override: Partial<ModelInfo> | null): void {
  const next = { ...getAppState().options.modelOverrides };
  if (override) next[key] = override;
  else delete next[key];
  saveModelOverrides(next);
  updateOptions({ modelOverrides: next });
}
