// Worker threads of the development CLI (`npm run cli`, under tsx): on Node 20 a worker does not
// inherit tsx's module hooks, so it registers them itself before loading the TypeScript entry.
import { register } from "tsx/esm/api";

register();
await import("../main.ts");
