// Copying the selected turn's request body as sent (compact JSON, built by the worker) to the
// clipboard; a failure shows in the banner.
import { isStale } from "../worker/client";
import { setAppState } from "./store";
import { errorMessage, pipeline, pipelineOptions } from "./workerBridge";

/** Copies the selected turn's request body as sent (compact JSON) to the clipboard. */
export async function copyRequestBody(turn: number): Promise<void> {
  try {
    const body = await pipeline().call("requestBody", { options: pipelineOptions(), turn }, "copy");
    await navigator.clipboard.writeText(body);
  } catch (error) {
    if (isStale(error)) return;
    setAppState({ error: `Could not copy the request: ${errorMessage(error)}` });
  }
}
