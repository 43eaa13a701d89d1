// A request field the session file does not hold (the system prompt, the tool schemas, a setting),
// as the agents that rebuild such fields fill it: the captured value verbatim, else the matching part
// of a generic captured header in the agent's wire shape, else a "not recorded" marker, named in words
// among the request's missing fields (the Details panel lists them; the top bar reads "system" and "tool").
import { notRecorded } from "../model";

/** `value`, or a "not recorded" marker named `label` when it is undefined (`missingLabel` then added to `missing`). */
export function valueOrNotRecorded(value: unknown, label: string, missingLabel: string, missing: string[]): unknown {
  if (value !== undefined) return value;
  missing.push(missingLabel);
  return notRecorded(label);
}

/** The captured value; else `headerPart` in the wire shape `toWire` makes; else not recorded. */
export function capturedOrFromHeader<T>(captured: unknown, headerPart: T | undefined, toWire: (part: T) => unknown, label: string, missingLabel: string, missing: string[]): unknown {
  if (captured !== undefined) return captured;
  return valueOrNotRecorded(headerPart === undefined ? undefined : toWire(headerPart), label, missingLabel, missing);
}
