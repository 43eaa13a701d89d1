// The small project every drift run works in ("Lighthouse Notes", a Node.js note-taking CLI): a
// few Markdown documents and two source files, enough for the scripted commands to read, count
// and fail on. Written fresh into each run's temporary folder.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const FILES: Record<string, string> = {
  "README.md": [
    "# Lighthouse Notes",
    "",
    "A small command-line note keeper. Notes are stored in `notes.json` next to the program.",
    "",
    "## Usage",
    "",
    "```sh",
    "node src/index.js add \"Buy lamp oil\"",
    "node src/index.js list",
    "node src/index.js search oil",
    "node src/index.js remove 1",
    "```",
    "",
    "See docs/architecture.md for how it is built and docs/faq.md for common questions.",
    "",
  ].join("\n"),
  "CHANGELOG.md": ["# Changelog", "", "## 0.3.0", "- Search notes by word.", "", "## 0.2.0", "- Remove a note by its number.", "", "## 0.1.0", "- Add and list notes.", ""].join("\n"),
  "package.json": `${JSON.stringify({ name: "lighthouse-notes", version: "0.3.0", private: true, type: "module", bin: { notes: "src/index.js" } }, null, 2)}\n`,
  "docs/architecture.md": [
    "# Architecture",
    "",
    "Lighthouse Notes has three parts.",
    "",
    "1. **The entry point** (`src/index.js`) reads the command and its arguments and calls the store.",
    "2. **The store** (`src/store.js`) loads `notes.json`, changes the list of notes in memory and writes the file back whole.",
    "3. **The documentation** (`README.md`, `docs/`) explains usage and design.",
    "",
    "Notes are plain objects `{ id, text, createdAt }`. Numbers are given in the order notes were added.",
    "",
  ].join("\n"),
  "docs/faq.md": ["# FAQ", "", "**Where are notes kept?** In `notes.json`, beside the program.", "", "**Can two processes write at once?** No: the last write wins.", ""].join("\n"),
  "src/index.js": [
    "import { addNote, listNotes, searchNotes, removeNote } from './store.js';",
    "",
    "const [command, ...rest] = process.argv.slice(2);",
    "const text = rest.join(' ');",
    "if (command === 'add') addNote(text);",
    "else if (command === 'list') for (const note of listNotes()) console.log(`${note.id}. ${note.text}`);",
    "else if (command === 'search') for (const note of searchNotes(text)) console.log(`${note.id}. ${note.text}`);",
    "else if (command === 'remove') removeNote(Number(text));",
    "else console.log('usage: notes add|list|search|remove');",
    "",
  ].join("\n"),
  "src/store.js": [
    "import { existsSync, readFileSync, writeFileSync } from 'node:fs';",
    "",
    "const FILE = new URL('../notes.json', import.meta.url);",
    "const load = () => (existsSync(FILE) ? JSON.parse(readFileSync(FILE, 'utf8')) : []);",
    "const save = (notes) => writeFileSync(FILE, JSON.stringify(notes, null, 2));",
    "",
    "export const listNotes = () => load();",
    "export const searchNotes = (word) => load().filter((note) => note.text.includes(word));",
    "export function addNote(text) {",
    "  const notes = load();",
    "  notes.push({ id: notes.length + 1, text, createdAt: new Date().toISOString() });",
    "  save(notes);",
    "}",
    "export const removeNote = (id) => save(load().filter((note) => note.id !== id));",
    "",
  ].join("\n"),
};

/** Writes the project into `folder` (created when missing). */
export function writeWorkspace(folder: string): void {
  for (const [name, text] of Object.entries(FILES)) {
    const file = path.join(folder, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
