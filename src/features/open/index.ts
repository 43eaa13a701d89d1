// The open feature's page-side surface: its inputs (file, paste, samples, drop, session picker), the
// empty state and load progress, opening sources, and the seam to the features that follow files.
export { DropOverlay } from "./DropOverlay";
export { EmptyState } from "./EmptyState";
export { KeptSessionControl } from "./KeptSessionControl";
export { LoadProgressBar } from "./LoadProgressBar";
export { OpenFileButton } from "./OpenFileButton";
export { PasteButton, PasteDialog } from "./PasteDialog";
export { SamplesMenu } from "./SamplesMenu";
export { SessionPicker } from "./SessionPicker";
export { provideFollowedOpeners } from "./followedOpeners";
export { startKeptViewSync } from "./keptSession";
export { openDroppedFiles } from "./openDropped";
export { openDroppedFolder } from "./openDroppedFolder";
export { dismissError, loadSamples, openDatabaseSession, openFiles, openKeptSession, openShareLink, openSource } from "./openSession";
export { useFileDrop } from "./useFileDrop";
export type { RecordsSummary } from "./protocol";
