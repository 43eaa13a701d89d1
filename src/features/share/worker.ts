// Share in the pipeline worker: links and bundles are built here, and opened here too (a link or
// bundle is decoded, validated and read like a file: the opener the open feature is handed).
import { buildShare, shareBundle } from "../../app/shareExport";
import { handlerKit, type HandlerTable } from "../../worker/handlers";
import type { SessionHost } from "../../worker/sessionHost";
import type { SourceOpener } from "../open/worker";
import { isSharedSource, readShared } from "./openShared";
import type { ShareMethods } from "./protocol";

export type { ShareMethods } from "./protocol";

/** Opens share links and reproduction bundles. */
export const sharedSourceOpener: SourceOpener = {
  accepts: isSharedSource,
  read: async (source) => (isSharedSource(source) ? readShared(source) : Promise.reject(new Error("Not a share link or bundle."))),
};

export function shareHandlers(host: SessionHost): HandlerTable<ShareMethods> {
  const { ofSession } = handlerKit(host);
  return {
    buildShare: ofSession({ stage: "building a share link", tables: "all" }, ({ options, params }, { target }) => buildShare(target, options, params, host.analyze(target, options))),
    shareBundle: ofSession({ stage: "building a reproduction bundle", tables: "all" }, ({ options, params }, { target }) =>
      shareBundle(target, options, params, host.analyze(target, options)),
    ),
  };
}
