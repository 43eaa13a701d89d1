// The live file's page-side surface: its bar, banner and top-bar button, following files (given by the
// page's mount to the open feature and the library) and the end-to-end tests' hook.
export { FollowControl } from "./FollowControl";
export { WalBanner } from "./WalBanner";
export { WatchFileButton } from "./WatchFileButton";
export { openDroppedLive, openFollowedDatabaseSession, openLiveHandles } from "./liveState";
export { installLiveTestHook } from "./liveTestHook";
