// Which of a catalogue's keywords a text holds, in one pass: the pre-filter that lets a pattern
// with keywords (gitleaks' rules) skip a text holding none of them without running its regex.
// An Aho-Corasick automaton over the lower-cased keywords, made a full table over ASCII so each
// character of the text costs one table read (ASCII letters folded to lower case on the fly; no
// lower-cased copy of a large text is made). A keyword with a character beyond ASCII is always
// taken as present: it cannot be missed, only not skipped.

export interface KeywordIndex {
  /** Every keyword of the index that `text` contains, compared without ASCII case. */
  present(text: string): Set<string>;
}

const ALPHABET = 128;
const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

export function keywordIndex(keywords: Iterable<string>): KeywordIndex {
  const words = [...new Set(keywords)];
  const always = words.filter((word) => word === "" || [...word].some((c) => c.charCodeAt(0) >= ALPHABET));
  const ascii = words.filter((word) => !always.includes(word));
  // The trie: goto[state * ALPHABET + code], -1 for none; outputs per state.
  const trie: number[] = new Array<number>(ALPHABET).fill(-1);
  const outputs: string[][] = [[]];
  for (const word of ascii) {
    let state = 0;
    for (let index = 0; index < word.length; index++) {
      const code = fold(word.charCodeAt(index));
      let next = trie[state * ALPHABET + code]!;
      if (next < 0) {
        next = outputs.length;
        outputs.push([]);
        for (let fill = 0; fill < ALPHABET; fill++) trie.push(-1);
        trie[state * ALPHABET + code] = next;
      }
      state = next;
    }
    outputs[state]!.push(word);
  }
  const goto = Int32Array.from(trie);
  // Failure links, breadth first, turning the trie into a full transition table.
  const fail = new Int32Array(outputs.length);
  const queue: number[] = [];
  for (let code = 0; code < ALPHABET; code++) {
    const next = goto[code]!;
    if (next < 0) goto[code] = 0;
    else queue.push(next);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    outputs[state] = [...outputs[state]!, ...outputs[fail[state]!]!];
    for (let code = 0; code < ALPHABET; code++) {
      const next = goto[state * ALPHABET + code]!;
      const fallback = goto[fail[state]! * ALPHABET + code]!;
      if (next < 0) goto[state * ALPHABET + code] = fallback;
      else {
        fail[next] = fallback;
        queue.push(next);
      }
    }
  }
  const table = goto;
  const hasOutput = Uint8Array.from(outputs, (list) => (list.length > 0 ? 1 : 0));
  return {
    present(text) {
      const found = new Set<string>(always);
      let state = 0;
      for (let at = 0; at < text.length; at++) {
        const code = text.charCodeAt(at);
        state = code < ALPHABET ? table[state * ALPHABET + fold(code)]! : 0;
        if (hasOutput[state] === 1) for (const word of outputs[state]!) found.add(word);
      }
      return found;
    },
  };
}
