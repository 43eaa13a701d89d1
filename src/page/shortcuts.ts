// Every keyboard shortcut of the page, in one list: the shortcuts panel (?) shows it and
// docs/shortcuts.md repeats it (a unit test checks they agree).
export interface Shortcut {
  keys: string[];
  what: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ["j", "↓"], what: "next timeline row" },
  { keys: ["k", "↑"], what: "previous timeline row" },
  { keys: ["Home"], what: "first timeline row" },
  { keys: ["End"], what: "last timeline row" },
  { keys: ["g", "Ctrl+G"], what: "go to a turn by number (type it, Enter)" },
  { keys: ["/"], what: "search every turn's messages (↑/↓ pick a result, Enter jumps to it)" },
  { keys: ["?"], what: "the list of shortcuts (this panel)" },
  { keys: ["Esc"], what: "close the search, the go-to box or the shortcuts list" },
];
