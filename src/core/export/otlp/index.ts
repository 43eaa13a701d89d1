// Public surface of the OTLP export's core: a session as trace data (GenAI semantic conventions).
export { sessionTrace, type TraceOptions } from "./trace";
export type * from "./types";
