// Which of a catalogue's keywords a text holds, in one pass: the pre-filter that lets a pattern
// with keywords (gitleaks' rules) skip a text holding none of them without running its regex.
// A trie of the lower-cased keywords, walked from every position with ASCII letters folded to
// lower case on the fly (no lower-cased copy of a large text is made).

interface Node {
  next: Map<number, Node>;
  /** Keyword ending here. */
  word?: string;
}

export interface KeywordIndex {
  /** Every keyword of the index that `text` contains, compared without ASCII case. */
  present(text: string): Set<string>;
}

const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

export function keywordIndex(keywords: Iterable<string>): KeywordIndex {
  const root: Node = { next: new Map() };
  for (const word of new Set(keywords)) {
    let node = root;
    for (let index = 0; index < word.length; index++) {
      const code = fold(word.charCodeAt(index));
      let child = node.next.get(code);
      if (!child) node.next.set(code, (child = { next: new Map() }));
      node = child;
    }
    node.word = word;
  }
  // Codes that can start a keyword, as a table for the hot loop.
  const starts = new Uint8Array(128);
  let nonAscii = false;
  for (const code of root.next.keys()) {
    if (code < 128) starts[code] = 1;
    else nonAscii = true;
  }
  return {
    present(text) {
      const found = new Set<string>();
      const length = text.length;
      for (let at = 0; at < length; at++) {
        const first = fold(text.charCodeAt(at));
        if (first < 128 ? starts[first] === 0 : !nonAscii) continue;
        let node = root.next.get(first);
        for (let index = at + 1; node; index++) {
          if (node.word !== undefined) found.add(node.word);
          if (index >= length) break;
          node = node.next.get(fold(text.charCodeAt(index)));
        }
      }
      return found;
    },
  };
}
