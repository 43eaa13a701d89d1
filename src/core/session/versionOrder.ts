// Ordering agent version strings, to say when a file was written by a version newer than the
// newest one verified end to end. Agents number releases two ways: semver-like ("2.1.332",
// "0.1.0-rc.8", where a lettered suffix is a pre-release, older than the release itself) and
// date-like ("2026.8.22-2", where a purely numeric suffix is a later build of the same day, newer
// than the bare date). Both compare part by part as numbers; a string that is not of either shape
// (no leading number) is not ordered at all, so nothing is claimed about it.

interface ParsedVersion {
  release: number[];
  /** Lettered suffix parts ("rc", 8): a pre-release, before the bare release. Empty when none. */
  preRelease: (number | string)[];
}

const SHAPE = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

function parse(version: string): ParsedVersion | null {
  const match = SHAPE.exec(version.trim());
  if (!match) return null;
  const release = match[1]!.split(".").map(Number);
  const suffix = match[2];
  if (suffix === undefined) return { release, preRelease: [] };
  const parts = suffix.split(/[.-]/).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  // A numeric-only suffix ("-2" of a date-like version) numbers a later build: more release parts.
  if (parts.every((part) => typeof part === "number")) return { release: [...release, ...(parts as number[])], preRelease: [] };
  return { release, preRelease: parts };
}

function compareParts(a: readonly (number | string)[], b: readonly (number | string)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x < y ? -1 : 1;
    // Semver: numeric identifiers sort before lettered ones; lettered ones compare as text.
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Negative when `a` is older than `b`, positive when newer, 0 when the same release; null when
 * either is not a version string of a known shape.
 */
export function compareVersions(a: string, b: string): number | null {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  const release = compareParts(x.release, y.release);
  if (release !== 0) return release;
  // Same release: a pre-release is older than the release; two pre-releases compare part by part.
  if (x.preRelease.length === 0 || y.preRelease.length === 0) return y.preRelease.length - x.preRelease.length === 0 ? 0 : x.preRelease.length === 0 ? 1 : -1;
  return compareParts(x.preRelease, y.preRelease);
}
