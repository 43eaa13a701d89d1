// Files dropped (or picked) together, sorted before anything is read in full: a reproduction
// bundle reopens its view; sessions open (an opencode database with its -wal, a session with its
// sub-agent files); each `.json` capture is attached as a header or a summariser request. Whether
// a `.json` file is a session is asked of the worker, whose readers can tell.
import { isBundle } from "../../core/share/bundle-start";
import { isStale } from "../../worker/client";
import type { SniffedKind } from "./sniffSessions";
import { dropRole, needsJsonRole } from "../../core/intake/folder";
import { attachDroppedCapture } from "../captures/index";
import { openFiles, openSource } from "./openSession";
import { getAppState, setAppState, useAppStore } from "../../page/store";
import { errorMessage, pipeline } from "../../page/workerBridge";

/** True when `file` starts like a reproduction bundle (`{"contextscope":"bundle"`). */
async function isBundleFile(file: File): Promise<boolean> {
  try {
    return isBundle(await file.slice(0, 512).text());
  } catch {
    return false;
  }
}

/**
 * Resolves true once another session is on screen (its first entries are enough: a large file's
 * captures need not wait for its last line), false when `opening` ended without one.
 */
function newSessionShown(opening: Promise<void>): Promise<boolean> {
  const before = getAppState().session;
  const shown = () => getAppState().session !== null && getAppState().session !== before;
  return new Promise((resolve) => {
    const stop = useAppStore.subscribe(() => {
      if (!shown()) return;
      stop();
      resolve(true);
    });
    void opening.then(() => {
      stop();
      resolve(shown());
    });
  });
}

/**
 * Files dropped or picked together: the session opens (several at once: an opencode database with
 * its -wal); each `.json` capture is a header or a summariser request, unless its first lines are
 * a session a reader recognises (an `opencode export` is JSON too).
 */
export function openDroppedFiles(files: File[]): void {
  void (async () => {
    // A reproduction bundle reopens the view it was saved from.
    for (const file of files) {
      if (await isBundleFile(file)) {
        void openSource({ kind: "share-bundle", name: file.name, data: file }, file.name);
        return;
      }
    }
    // What each `.json` file is decides whether it opens or is a capture (the intake's rule; a recorder's NNN.meta.json is neither).
    const jsonFiles = files.filter((file) => needsJsonRole(file.name));
    let recognised: SniffedKind[] = [];
    try {
      // Asked only when there is a `.json` file: a drop of session files opens without waiting for it.
      if (jsonFiles.length > 0) recognised = await pipeline().call("sniffSessions", { files: jsonFiles });
    } catch (error) {
      if (!isStale(error)) setAppState({ error: errorMessage(error) });
      return;
    }
    const roles = new Map(jsonFiles.map((file, index) => [file, recognised[index]]));
    const sessions = files.filter((file) => dropRole(file.name, roles.get(file)) === "session");
    const captures = files.filter((file) => dropRole(file.name, roles.get(file)) === "capture");
    // Captures belong to the session dropped with them: they are attached once it is on screen
    // (opening a session clears the previous one's), and a facts file is checked against it.
    // The open failed (its banner says why): the captures are not the session's on screen.
    if (sessions.length > 0 && !(await newSessionShown(openFiles(sessions)))) return;
    for (const capture of captures) await attachDroppedCapture(capture);
  })();
}
