// Page-wide drag and drop of files: tracks whether files are dragged over the window (for the
// overlay) and hands dropped files to the caller (a dropped folder's session files, ./droppedFiles.ts),
// unless the browser gave their handles: then they are followed (a folder: the library or its session).
import { useEffect, useState } from "react";
import { droppedFiles } from "./droppedFiles";
import { droppedHandles } from "../live/fileSystemAccess";
import { openDroppedLive } from "../live/liveState";
import { droppedFolderHandle, openDroppedFolder } from "./openDroppedFolder";

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes("Files");
}

export function useFileDrop(onFiles: (files: File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    };
    const leave = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      // Asked during the event: the browser voids the drop's items once it is over.
      const handles = droppedHandles(event.dataTransfer);
      const dropped = droppedFiles(event.dataTransfer);
      void (async () => {
        // A folder dropped with its handle opens as the sessions library, or as its one session followed.
        const folder = await droppedFolderHandle(handles);
        if (folder && (await openDroppedFolder(folder))) return;
        const files = await dropped.read();
        // A session file (or a database with its -wal, or a session with its sub-agent files) dropped with its handles is followed as it changes.
        if (files.length > 0 && (await openDroppedLive(files, handles, dropped.folder))) return;
        if (files.length > 0) onFiles(files);
      })();
    };
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragover", over);
    window.addEventListener("dragleave", leave);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragover", over);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("drop", drop);
    };
  }, [onFiles]);
  return dragging;
}
