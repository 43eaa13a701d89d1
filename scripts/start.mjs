// `npm start`: installs dependencies if needed, builds the app and serves the production build.
// The app opens a built-in sample session on first visit, so the printed URL shows a session at once.
import { execSync, spawn } from "node:child_process";
import { ensureDependencies } from "./ensure-deps.mjs";

const port = process.env.PORT ?? "4173";
ensureDependencies();
execSync("npx vite build --logLevel error", { stdio: "inherit" });

const server = spawn("npx", ["vite", "preview", "--port", port, "--strictPort", "--host", "127.0.0.1"], {
  stdio: ["ignore", "pipe", "inherit"],
});
let announced = false;
server.stdout.on("data", (chunk) => {
  if (!announced && String(chunk).includes(port)) {
    announced = true;
    console.log(`\nContextscope is running at http://127.0.0.1:${port}/ (a sample session opens on first visit)`);
    console.log("Press Ctrl+C to stop.");
  }
});
server.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
