// Public exports of hermes-agent's storage readers (for the worker and CLI glue and the tests).
export { readHermesStorage } from "./open";
export { type HermesSqlQuery } from "./stateDb";
export { hermesStorageHeaderOf } from "./session";
