// Whether the readers that can keep large texts as bytes (a line reader with `pushLineBytes`) do
// so. On by default; turning it off reads every text as a JavaScript string, as before the byte
// store existed: the CLI does so with CONTEXTSCOPE_STORED_TEXTS=0 (to tell whether a difference
// comes from the byte path), tests with `setReadersKeepStoredTexts(false)` to compare both paths.
// Readers ask at the start of each file, so a file is read one way from its first line to its last.

let keepStoredTexts = true;

export function readersKeepStoredTexts(): boolean {
  return keepStoredTexts;
}

export function setReadersKeepStoredTexts(on: boolean): void {
  keepStoredTexts = on;
}
