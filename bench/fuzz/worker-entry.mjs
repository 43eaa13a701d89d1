// Entry of a fuzz worker thread: registers tsx's TypeScript loader in this thread (a worker does
// not inherit the parent's loader hooks), then loads the TypeScript worker.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
