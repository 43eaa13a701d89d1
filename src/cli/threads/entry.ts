// The script worker threads start from: the CLI's own entry file (the compiled bin, or main.ts
// under tsx), registered by that entry. When nothing registered one (the CLI run in-process, as in
// the tests), commands do their work on the calling thread.
let entry: URL | null = null;

export function setThreadEntry(url: URL): void {
  entry = url;
}

export function threadEntry(): URL | null {
  return entry;
}
