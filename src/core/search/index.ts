// Public surface of session search: the searchable text of a message and the turn-by-turn search.
export * from "./messageText";
export * from "./searchSession";
