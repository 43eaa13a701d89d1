// Public surface of the OTLP export's core: a session as trace data (GenAI semantic conventions).
export { sessionTrace } from "./trace";
export type * from "./types";
