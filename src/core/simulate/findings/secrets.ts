// Finding "secret present in the request" (CP-HA-24 invariant 3): every string of
// the body is scanned with the detector export and share use (src/core/check/secretDetector.ts,
// the redaction catalogue less test runners' result lines). The finding names the kind and the
// place, never the value.
import { findSharedSecrets } from "../../check/secretDetector";
import type { Finding, FindingLocation } from "../types";
import { stringLeaves } from "./body-text";

export function checkSecrets(body: Record<string, unknown>, requestIndex: number | "after", label: string): Finding[] {
  const findings: Finding[] = [];
  for (const leaf of stringLeaves(body)) {
    for (const match of findSharedSecrets(leaf.value)) {
      const location: FindingLocation = { request: requestIndex, path: leaf.path, start: match.start, end: match.end };
      findings.push({
        id: "secret-in-request",
        severity: "error",
        message: `${label}: a ${match.label} (${match.value.length} chars) is present at ${leaf.path}`,
        location,
        ruleId: "CP-HA-24",
      });
    }
  }
  return findings;
}
