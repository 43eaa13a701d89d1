// `npm run fuzz` starts here, under plain Node: it registers tsx's TypeScript loader for this
// thread and loads the runner. (Started under `tsx` itself, the worker threads could not register
// a loader of their own; with plain Node each thread registers one.)
import { register } from "tsx/esm/api";

register();
await import("./run.ts");
