// The one secret detector of `check`, export and share: the redaction catalogue (src/core/redact)
// with the matches that are not secrets taken out, so `check`'s "secret in request" findings, the
// Export panel's and the Share dialog's review lists name the same values. What it takes out:
// test runners' result lines — Go's `--- PASS: TestName (0.01s)`, `--- FAIL: …`, `--- SKIP: …` —
// which the "secret-named assignment" pattern reads as `PASS: <value>` (a password named PASS):
// the value there is a test's name, never a credential; and, in source code a session shows, a
// format verb (`auth: %s`) or a Go qualified name (`AuthKey: strategy.NameManualCommit`) after a
// secret-sounding name: code, never a value.
import { secretCatalogue } from "../redact/catalogue";
import { base64Secrets } from "../redact/embedded";
import { findSecrets } from "../redact/find";
import type { SecretMatch, SecretPattern } from "../redact/types";

/** Result words a test runner prints before a test's name, spelt as it prints them. */
const TEST_RESULT_WORDS: ReadonlySet<string> = new Set(["PASS", "FAIL", "SKIP"]);

/** A Go test, benchmark, example or fuzz target's name, with its sub-test path. */
const TEST_NAME = /^(?:Test|Benchmark|Example|Fuzz)[A-Za-z0-9_]*(?:\/\S*)?$/;

/** A printf-style verb standing for a value (`%s`, `%v`, `%q`, `%d`, `%+v`, `%#v`). */
const FORMAT_VERB = /^%[-+# 0]{0,3}[a-zA-Z]$/;

/** A Go qualified identifier: a lower-case package name, a dot, an exported name. */
const QUALIFIED_NAME = /^[a-z][a-z0-9]{0,30}\.[A-Z][A-Za-z0-9_]{0,80}$/;

function isNotAValue(secret: string, groups: Readonly<Record<string, string | undefined>>): boolean {
  if (TEST_RESULT_WORDS.has(groups.name ?? "") && TEST_NAME.test(secret)) return true;
  return FORMAT_VERB.test(secret) || QUALIFIED_NAME.test(secret);
}

let detector: readonly SecretPattern[] | null = null;

/** The catalogue as `check`, export and share use it (made on first use, as the catalogue is). */
export function secretDetector(): readonly SecretPattern[] {
  return (detector ??= secretCatalogue().map((pattern) => {
    if (pattern.id !== "secret-assignment" || !("regex" in pattern)) return pattern;
    const validate = pattern.validate;
    return { ...pattern, validate: (secret, groups) => !isNotAValue(secret, groups) && (validate ? validate(secret, groups) : true) };
  }));
}

/**
 * Every secret in one string, as `check`, export and share find them: the patterns, and base64
 * runs (a gzipped `.env` piped to base64) whose decoded text holds a secret, as redaction reads them.
 */
export function findSharedSecrets(text: string): SecretMatch[] {
  const patterns = secretDetector();
  return findSecrets(text, patterns, base64Secrets(text, patterns));
}
