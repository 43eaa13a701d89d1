// Public surface of session search: the searchable text of a message, the session's search index
// (distinct messages with their first turn and a trigram sketch) and the search over it.
export * from "./messageText";
export * from "./searchIndex";
export * from "./searchSession";
export * from "./trigramSketch";
