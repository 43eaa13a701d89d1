// Linear-time guarantees of the catalogue, asserted on regex design (not on time): every
// quantifier bounded, no quantified group containing a repetition, and every pattern anchored at
// a literal or a lookbehind. The private-key scanner is bounded by a visited-character count.
// Then every pattern runs over 1 MB adversarial strings (repeated prefixes that start many
// match attempts) and must finish with sane results.
import { describe, expect, it } from "vitest";
import { findSecrets, redactText, scanPrivateKeyBlocks } from "../../../src/core/redact";
import { gitleaksRules, OWN_SECRET_PATTERNS } from "../../../src/core/redact/catalogue";
import type { RegexSecretPattern } from "../../../src/core/redact";

interface RegexDesign {
  unbounded: string[];
  nestedRepetition: boolean;
  maxBound: number;
}

/** A small reader of regex source: quantifiers outside character classes, per group nesting. */
function inspectRegex(source: string): RegexDesign {
  const design: RegexDesign = { unbounded: [], nestedRepetition: false, maxBound: 0 };
  // Stack of groups: does the group (so far) contain a repetition (max > 1)?
  const groups: boolean[] = [false];
  let lastAtomWasGroup = false;
  let lastGroupHadRepetition = false;
  let i = 0;
  const markRepetition = () => {
    groups[groups.length - 1] = true;
  };
  const quantifier = (max: number, text: string) => {
    if (!Number.isFinite(max)) design.unbounded.push(text);
    else design.maxBound = Math.max(design.maxBound, max);
    if (max > 1) {
      if (lastAtomWasGroup && lastGroupHadRepetition) design.nestedRepetition = true;
      markRepetition();
    }
  };
  while (i < source.length) {
    const char = source[i] as string;
    if (char === "\\") {
      i += 2;
      lastAtomWasGroup = false;
      continue;
    }
    if (char === "[") {
      i++;
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      i++;
      lastAtomWasGroup = false;
      continue;
    }
    if (char === "(") {
      groups.push(false);
      i++;
      // Skip group syntax such as ?:, ?<name>, ?<!, ?=, ?!
      if (source[i] === "?") {
        i++;
        if (source[i] === "<" && source[i + 1] !== "!" && source[i + 1] !== "=") {
          while (source[i] !== ">") i++;
        }
        i++;
      }
      lastAtomWasGroup = false;
      continue;
    }
    if (char === ")") {
      lastGroupHadRepetition = groups.pop() as boolean;
      if (lastGroupHadRepetition) markRepetition();
      lastAtomWasGroup = true;
      i++;
      continue;
    }
    if (char === "*" || char === "+") {
      quantifier(Infinity, char);
      i++;
      lastAtomWasGroup = false;
      continue;
    }
    if (char === "?") {
      quantifier(1, char);
      i++;
      lastAtomWasGroup = false;
      continue;
    }
    if (char === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (match) {
        const max = match[2] === undefined ? Number(match[1]) : match[3] === "" ? Infinity : Number(match[3]);
        quantifier(max, match[0]);
        i += match[0].length;
        lastAtomWasGroup = false;
        continue;
      }
    }
    lastAtomWasGroup = false;
    i++;
  }
  return design;
}

const regexPatterns = OWN_SECRET_PATTERNS.filter((pattern): pattern is RegexSecretPattern => "regex" in pattern);

describe("catalogue regex design", () => {
  it("the design reader catches what it must", () => {
    expect(inspectRegex("a+").unbounded).toEqual(["+"]);
    expect(inspectRegex("a{2,}").unbounded).toEqual(["{2,}"]);
    expect(inspectRegex("(?:a{1,3}b){1,9}").nestedRepetition).toBe(true);
    expect(inspectRegex("(?:[^\"\\\\]|\\\\.){1,9}").nestedRepetition).toBe(false);
    expect(inspectRegex("(?:x{1,3})?y").nestedRepetition).toBe(false);
    expect(inspectRegex("[a+*]{1,4}").unbounded).toEqual([]);
  });

  for (const pattern of regexPatterns) {
    it(`${pattern.id}: bounded, not nested, anchored, g+d flags`, () => {
      const design = inspectRegex(pattern.regex.source);
      expect(design.unbounded).toEqual([]);
      expect(design.nestedRepetition).toBe(false);
      expect(design.maxBound).toBeLessThanOrEqual(8192);
      expect(pattern.regex.flags).toContain("g");
      expect(pattern.regex.flags).toContain("d");
      // A match attempt can only start at a lookbehind-checked boundary or at a literal character
      // (a distinctive vendor prefix, found even glued to the word before it).
      expect(pattern.regex.source).toMatch(/^(?:(?:\(\?:)?\(\?<[!=]|"|\[\?&\]|https:|\(\?<secret>\(\?<prefix>[A-Za-z])/);
    });
  }

  // gitleaks' rules are theirs, written for RE2 (linear whatever the input): translated, every
  // repeat is bounded and none nests, and each carries keywords, so a text without one skips it.
  for (const pattern of gitleaksRules().patterns) {
    it(`gitleaks ${pattern.id}: bounded, not nested, keywords, g+d flags`, () => {
      const design = inspectRegex(pattern.regex.source);
      expect(design.unbounded).toEqual([]);
      expect(design.nestedRepetition).toBe(false);
      expect(design.maxBound).toBeLessThanOrEqual(8192);
      expect(pattern.regex.flags).toContain("g");
      expect(pattern.regex.flags).toContain("d");
      expect(pattern.keywords?.length).toBeGreaterThan(0);
    });
  }
});

const MB = 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

const ADVERSARIAL: Record<string, string> = {
  letters: fill("a"),
  upper: fill("A"),
  "sk- repeated": fill("sk-"),
  "sk-proj- then letters": `sk-proj-${fill("a")}`,
  "ghp_ repeated": fill("ghp_"),
  "AKIA repeated": fill("AKIA"),
  "eyJ segments": fill("eyJa."),
  "dashed words": fill("a-"),
  "assignments without values": fill("a="),
  "colon words": fill("key:"),
  "open JSON strings": fill('"password": "'),
  "BEGIN markers": fill("-----BEGIN PRIVATE KEY-----\n"),
  "BEGIN then base64": `-----BEGIN RSA PRIVATE KEY-----\n${fill("QUJD")}`,
  "scheme repeated": fill("https://a:"),
  "connection string without @": `postgres://u:${fill("p")}`,
  "query parameters": fill("?token="),
  "bearer words": fill("Bearer "),
  backslashes: fill("\\"),
  quotes: fill('"'),
};

describe("adversarial 1 MB inputs", () => {
  for (const [name, text] of Object.entries(ADVERSARIAL)) {
    it(`${name}: completes with bounded, ordered, non-overlapping matches`, () => {
      const matches = findSecrets(text);
      let previousEnd = 0;
      for (const match of matches) {
        expect(match.start).toBeGreaterThanOrEqual(previousEnd);
        expect(match.end).toBeGreaterThan(match.start);
        previousEnd = match.end;
      }
      expect(matches.length).toBeLessThanOrEqual(text.length);
    });
  }

  it("the private-key scanner visits each character a bounded number of times", () => {
    for (const text of [ADVERSARIAL["BEGIN markers"]!, ADVERSARIAL["BEGIN then base64"]!, fill("-----BEGIN A1 PRIVATE KEY-----x-----END "), fill("-----BEGIN X PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\n")]) {
      const stats = { visited: 0 };
      scanPrivateKeyBlocks(text, stats);
      expect(stats.visited).toBeLessThanOrEqual(3 * text.length);
    }
  });

  it("masks a 1 MB unterminated key body entirely", () => {
    const text = ADVERSARIAL["BEGIN then base64"]!;
    const redacted = redactText(text).text;
    expect(redacted.length).toBeLessThan(100);
    expect(redacted).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n\[redacted \d+ chars\]$/);
  });
});
