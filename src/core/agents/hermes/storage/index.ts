// Public exports of hermes-agent's storage readers (for the worker and CLI glue and the tests).
export { readHermesStorage, openHermesStore, type HermesOpenInput } from "./open";
export { HermesStorageError, isHermesStateDb, tableNames, type HermesSqlQuery } from "./stateDb";
export { hermesStorageHeaderOf, type HermesStorageHeader, type HermesSessionListing } from "./session";
export { readHermesSideFile, sessionIdFromFileName } from "./sideFiles";
export { checkRequestDumps, compareDump, describeDumpCheck, dumpCheckLinesForTurn, type DumpCheck } from "./dumps";
export { pythonCanonicalJson } from "./request";
