// Files dropped (or picked) together, sorted before anything is read in full: a reproduction
// bundle reopens its view; sessions open (an opencode database with its -wal, a session with its
// sub-agent files); each `.json` capture is attached as a header or a summariser request.
import { attachDroppedCapture } from "./captures";
import { openFiles, openSource } from "./open";
import { isBundleFile, looksLikeSession } from "./sniffInput";

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
    // A recorder's NNN.meta.json beside each request body (a dropped folder of captures) is not a capture.
    const jsonFiles = files.filter((file) => file.name.toLowerCase().endsWith(".json") && !file.name.toLowerCase().endsWith(".meta.json"));
    const jsonSessions = new Set<File>();
    for (const file of jsonFiles) if (await looksLikeSession(file)) jsonSessions.add(file);
    const captures = jsonFiles.filter((file) => !jsonSessions.has(file));
    const sessions = files.filter((file) => !file.name.toLowerCase().endsWith(".json") || jsonSessions.has(file));
    if (sessions.length > 0) void openFiles(sessions);
    for (const capture of captures) await attachDroppedCapture(capture);
  })();
}
