// Whether the readers that can keep large texts as bytes (a line reader with `pushLineBytes`) do
// so. Off by default while the stages after the readers still expect every text to be a string;
// the CLI turns it on with CONTEXTSCOPE_STORED_TEXTS=1, tests with `setReadersKeepStoredTexts`.
// Readers ask at the start of each file, so a file is read one way from its first line to its last.

let keepStoredTexts = false;

export function readersKeepStoredTexts(): boolean {
  return keepStoredTexts;
}

export function setReadersKeepStoredTexts(on: boolean): void {
  keepStoredTexts = on;
}
