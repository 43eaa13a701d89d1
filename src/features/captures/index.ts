// The captured-requests feature's page-side surface: the header-source control, a capture's diff and facts,
// and attaching a dropped capture to the open session or to a compaction.
export { CaptureDiff } from "./CaptureDiff";
export { CaptureFacts } from "./CaptureFacts";
export { HeaderControl } from "./HeaderControl";
export { attachCompactionCaptures, attachDroppedCapture, clearCompactionCaptures, watchWireVerification } from "./capturesState";
