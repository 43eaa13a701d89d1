// The Request view in the pipeline worker: the request of a turn as the page shows it (JSON text,
// Messages tab rows, highlights, the agent's own request dump beside it) and its body as sent.
// The last few views are kept, so stepping back and forth is instant.
import { buildTurnRequest, messageCharsEstimator } from "../../core/session/pipeline";
import { requestDumpLines } from "../../core/session/storage";
import { windowFromSession } from "../../core/session/simulate/index";
import { stringifyWithTexts } from "../../core/text/text";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import { optionsKey, type SessionHost, type SessionSlot } from "../../worker/sessionHost";
import { linkThreadCalls } from "../threads/worker";
import type { RequestMethods, TurnRequestResult } from "./protocol";
import { requestView } from "./requestModel";
import { RequestJsonFormatter } from "./requestJson";

export type { RequestMethods } from "./protocol";
export { messageRows, notRecordedHighlights } from "./requestModel";

const RECENT_VIEWS = 4;

/**
 * Recently shown turns (key: options + turn) of the open session, and the JSON texts of the last
 * request's parts (a step to the next turn writes only its new messages); a session that grows
 * starts afresh.
 */
const RECENT: SessionSlot<{ views: Map<string, TurnRequestResult>; json: RequestJsonFormatter }> = {
  scope: "run",
  make: () => ({ views: new Map(), json: new RequestJsonFormatter() }),
};

export function requestHandlers(host: SessionHost): HandlerTable<RequestMethods> {
  const { ofSession } = handlerKit(host);
  return {
    buildRequest: ofSession({ stage: "building the request of a turn" }, ({ options, turn }, { session: opened, target }) => {
      const recent = host.serviceFor(RECENT, target);
      const recentViews = recent.views;
      const key = `${optionsKey(options)}#${turn}`;
      const cached = recentViews.get(key);
      if (cached) {
        recentViews.delete(key);
        recentViews.set(key, cached);
        return cached;
      }
      const built = buildTurnRequest(target, options, turn);
      const view = requestView(turn, built, messageCharsEstimator(target, options), (body) => recent.json.format(body));
      // An unknown model's window as the simulator takes it: never below what the session reached.
      view.built.windowFromSession = windowFromSession(target, options, built.model);
      // Tool calls of this request that started a sub-agent thread link to it (Messages tab).
      linkThreadCalls(view, built.messages, opened, options);
      const groundTruth = requestDumpLines(target, options, turn);
      if (groundTruth.length > 0) view.groundTruth = groundTruth;
      recentViews.set(key, view);
      if (recentViews.size > RECENT_VIEWS) recentViews.delete(recentViews.keys().next().value as string);
      return view;
    }),
    requestBody: ofSession({ stage: "building the request body of a turn" }, ({ options, turn }, { target }) => stringifyWithTexts(buildTurnRequest(target, options, turn).body)),
  };
}
