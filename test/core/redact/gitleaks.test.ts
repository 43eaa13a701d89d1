// gitleaks' rules as data: the RE2 → JavaScript translation on the constructs the rules use, the
// one-pass keyword pre-filter, and how many rules are used and left out (with the reasons), so a
// new rule file that translates worse fails here instead of silently masking less.
import { describe, expect, it } from "vitest";
import { gitleaksRules } from "../../../src/core/redact/catalogue";
import { GITLEAKS_COMMIT, GITLEAKS_RULES } from "../../../src/core/redact/gitleaks-rules";
import { keywordIndex } from "../../../src/core/redact/keywords";
import { translateRe2 } from "../../../src/core/redact/re2";

const js = (re: string, max?: number): string => {
  const result = translateRe2(re, max);
  if ("error" in result) throw new Error(result.error);
  return result.source;
};

describe("RE2 to JavaScript", () => {
  it("spells out inline case flags", () => {
    expect(js("dp\\.pt\\.(?i)[a-z0-9]{2}")).toBe("dp\\.pt\\.[A-Za-z0-9]{2}");
    expect(js("(?i)ab(?-i:C)")).toBe("[aA][bB](?:C)");
    expect(js("x(?i:y)z")).toBe("x(?:[yY])z");
    const re = new RegExp(js("(?i)\\b(glsa_[a-z]{3})"));
    expect(re.test("GLSA_abc")).toBe(true);
    expect(new RegExp(js("[0-9]{2}:(?-i:A)[a-z]{2}")).test("12:aab")).toBe(false);
  });

  it("translates POSIX classes, \\z, \\x{…}, (?P<name>…) and (?s:.)", () => {
    expect(js("[[:alnum:]]{2}\\z")).toBe("[A-Za-z0-9]{2}$");
    expect(js("\\x{41}")).toBe("\\u0041");
    expect(js("(?P<key>a)")).toBe("(?<key>a)");
    expect(js("(?s:a.b)")).toBe("(?:a[\\s\\S]b)");
  });

  it("keeps a trailing '-' of a class literal when case letters are added", () => {
    const re = new RegExp(`^${js("(?i)[a-z0-9_-]{3}")}$`);
    expect(re.test("A-_")).toBe(true);
    expect(re.test("A.B")).toBe(false);
  });

  it("bounds unbounded repeats when asked", () => {
    expect(js("a+b*c{3,}", 100)).toBe("a{1,100}b{0,100}c{3,103}");
    expect(js("a+")).toBe("a+");
  });

  it("refuses what JavaScript reads differently", () => {
    expect(translateRe2("\\Qa.b\\E")).toEqual({ error: "escape \\Q" });
    expect(translateRe2("\\p{Greek}")).toEqual({ error: "escape \\p" });
    expect("error" in translateRe2("(?=a)")).toBe(true);
  });
});

describe("keyword pre-filter", () => {
  const index = keywordIndex(["sk", "sk_live", "api", "rapidapi", "hvs.", "ключ"]);
  it("finds every keyword, overlapping and without case", () => {
    expect([...index.present("x SK_LIVE y")].sort()).toEqual(["sk", "sk_live", "ключ"]);
    expect([...index.present("RapidAPI")].sort()).toEqual(["api", "rapidapi", "ключ"]);
    expect([...index.present("token hvs.abc")].sort()).toEqual(["hvs.", "ключ"]);
  });
  it("finds none in a text without them (a keyword beyond ASCII is always taken as present)", () => {
    expect([...index.present("nothing here at all")]).toEqual(["ключ"]);
  });
});

describe("the pinned gitleaks rule set", () => {
  it("is read at a commit and every rule is used or left out with a reason", () => {
    expect(GITLEAKS_COMMIT).toMatch(/^[0-9a-f]{40}$/);
    expect(GITLEAKS_RULES).toHaveLength(222);
    expect(gitleaksRules().patterns.length + gitleaksRules().leftOut.length).toBe(222);
    for (const { reason } of gitleaksRules().leftOut) expect(reason.length).toBeGreaterThan(10);
  });

  it("uses 204 rules; 18 are left out, none because it does not translate", () => {
    const reasons = new Map<string, number>();
    for (const { reason } of gitleaksRules().leftOut) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    expect(gitleaksRules().patterns).toHaveLength(204);
    expect(Object.fromEntries(reasons)).toEqual({
      "our own rule of the same id is used": 7,
      "applies only to files at a given path": 4,
      "matches file names only": 1,
      "a repeated group repeats inside (could backtrack)": 4,
      "covered by our secret-name rules, which know a session's non-values": 1,
      "our slack-webhook finds the same URLs": 1,
    });
  });
});
