// Public surface of comparing two sessions or two branches of one.
export { compareSessions } from "./compareSessions";
export type { CompareOptions } from "./compareSessions";
export { alignTurns, runsOf } from "./align";
export { compareSegmented } from "./requestDiff";
export { userTextOf } from "./side";
export type { CompareSide } from "./side";
export type * from "./types";
