// Applies secret matches to one string: masks each range (unless its id was consciously
// unmasked) and produces the review-list findings for it. Shared by redactText and the JSON walk.
import { redactValue } from "./mask";
import type { RedactionFinding, SecretMatch } from "./types";

/** Stable id of a finding: readable and unique (kind, path and range identify it). */
export function findingId(kind: string, path: string, start: number, end: number): string {
  return `${kind}@${path}:${start}-${end}`;
}

export interface AppliedMasks {
  text: string;
  findings: RedactionFinding[];
}

/** `matches` must be sorted and non-overlapping (as findSecrets returns them). */
export function applyMasks(text: string, matches: readonly SecretMatch[], path: string, unmasked: ReadonlySet<string>): AppliedMasks {
  if (matches.length === 0) return { text, findings: [] };
  const findings: RedactionFinding[] = [];
  const parts: string[] = [];
  let cursor = 0;
  for (const match of matches) {
    const id = findingId(match.kind, path, match.start, match.end);
    const masked = redactValue(match.value, { prefixLength: match.prefixLength, style: match.mask });
    const keep = unmasked.has(id);
    findings.push({
      id,
      path,
      start: match.start,
      end: match.end,
      kind: match.kind,
      label: match.label,
      masked,
      length: match.end - match.start,
      unmasked: keep,
    });
    parts.push(text.slice(cursor, match.start), keep ? match.value : masked);
    cursor = match.end;
  }
  parts.push(text.slice(cursor));
  return { text: parts.join(""), findings };
}
