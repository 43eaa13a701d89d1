// Building and reading capture facts (CaptureFact in ../model.ts): one constructor so every
// learner writes the same shape, and the lookups the agents use to fill a turn from them.
import type { CaptureFact, PipelineOptions } from "../model";

export function fact(kind: CaptureFact["kind"], key: string, label: string, path: string, value: unknown, source: string): CaptureFact {
  return { key, kind, label, path, value, source };
}

/**
 * A session constant learnt from the attached capture (`options.header`), else from the first of
 * `options.captures` that holds it; undefined when none does.
 */
export function sessionConstant(options: PipelineOptions, key: string): CaptureFact | undefined {
  const fromHeader = options.header?.facts?.find((item) => item.kind === "session" && item.key === key);
  if (fromHeader) return fromHeader;
  for (const capture of options.captures ?? []) {
    const found = capture.facts?.find((item) => item.kind === "session" && item.key === key);
    if (found) return found;
  }
  return undefined;
}
