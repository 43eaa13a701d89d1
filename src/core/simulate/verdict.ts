// CP-0-4: a verdict together with the list of verdicts the policy checks, so the UI can show the
// others as "not checked by this policy".
import { VERDICTS, type CompactionPolicy, type Verdict, type VerdictResult } from "./types";

export function makeVerdict(
  policy: Pick<CompactionPolicy, "checkedVerdicts">,
  verdict: Verdict,
  ruleId: string,
  message: string | null = null,
  code: string | null = null,
): VerdictResult {
  const checked = [...policy.checkedVerdicts];
  return { verdict, message, code, ruleId, checked, notChecked: VERDICTS.filter((v) => !checked.includes(v)) };
}
