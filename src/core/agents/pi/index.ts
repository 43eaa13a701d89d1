// Public entry of the pi/senpi pipeline pieces: tree, projection, conversion, senpi steps, turns.
export { buildTree, listBranches, pathToRoot, resolveLeafId, isAssistantEntry, cycleWarning } from "./tree";
export type { SessionTree, TreePath } from "./tree";
export { buildSessionContext, projectPath, PathProjector } from "./projection";
export type { ProjectedMessage, SessionContext, EntryMessageCache, ProjectionChange } from "./projection";
export {
  convertToLlm,
  convertProjected,
  renderBashExecution,
  llmMessageChars,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  ENVIRONMENT_CUSTOM_TYPE,
} from "./convert";
export type { ConvertedMessage, ConvertResult } from "./convert";
export {
  applySenpiSteps,
  replaceRejectedImages,
  dropFailedTurns,
  insertToolResultUserWords,
  foldEnvironment,
  SenpiTally,
  DEFAULT_IMAGE_PLACEHOLDER,
} from "./senpi";
export type { NotesStep, SenpiStepOptions, SenpiStepsResult, SenpiStreamListener } from "./senpi";
export { getPiSessionCache, getBranchPath } from "./sessionCache";
export type { BranchPath, PiSessionCache } from "./sessionCache";
export { analyzePiSession, buildPiTurnContext, countPiTurns } from "./turns";
export { NOTES_DEFAULT, notesEnabled, notesSetupFor, defaultNotesStep, carrierSources } from "./notesSetup";
export type { NotesSetup, CarrierSource } from "./notesSetup";
export { NotesTally } from "./notesTally";
export type { NotesCount } from "./notesTally";
