// The intake: what a set of files is. Hosts (the page's drop and folder paths, the pipeline and
// library workers, the CLI's inputs, `scan` and `watch`) give it names, sizes and first bytes and
// follow its answer: which files are sessions (of which agent, in which compressed container), a
// database with its -wal, an agent's side files and whose session they go with, captured requests,
// and what to refuse with which message. The decisions ask the agents' descriptors through
// src/core/session/; the containers are ./containers/.
export { intakeHeadLength, type IntakeContext, type IntakeSource } from "./source";
export { headRole, readsWhole } from "./head";
export { jsonRole, type JsonRole } from "./json";
export { planOpen, missingDatabaseMessage, noteFilesAmong, type OpenPlan } from "./plan";
export { planFolder, dropRole, needsJsonRole, isFollowedName, isSessionName, isWalkedName, subAgentParent } from "./folder";
export { scanRole, foldersReadWithDatabase, sideFileNear, type ScanRole } from "./scan";
export { storeFileGivenAlone, storeFilesBesideDatabase, homeDatabaseName, homeFolderHint, type FolderAccess } from "./store";
