// The check every agent's walk with reused request lists (PipelineHooks.reuseRequestLists) must
// pass: its requests read, while each is the current one, exactly as a plain walk's; and each
// kind of list is one of two arrays handed out in turn (turn 3's is turn 1's again, turn 2's
// another), not a copy of the whole context per turn.
import { expect } from "vitest";
import type { BuiltRequest, Session } from "../../src/core/model";
import { iterateTurnRequests } from "../../src/core/session/turnRequests";

/** What a reader of the walk sees of each request while it is the current one. */
function seen(request: BuiltRequest) {
  return { body: JSON.stringify(request.body), messages: JSON.stringify(request.messages) };
}

/** Walks `open()` plainly and with reused lists; `lists` names the lists a request is handed. */
export function expectListsHandedInTurn(open: () => Session, turns: number, lists: (request: BuiltRequest) => unknown[][]): void {
  const plain = [...iterateTurnRequests(open(), {})].map(({ request }) => seen(request));
  const reused: ReturnType<typeof seen>[] = [];
  const handed: unknown[][][] = [];
  for (const { request } of iterateTurnRequests(open(), {}, { reuseRequestLists: true })) {
    reused.push(seen(request));
    handed.push(lists(request));
  }
  expect(plain).toHaveLength(turns);
  expect(reused).toEqual(plain);
  for (let kind = 0; kind < handed[0]!.length; kind++) {
    expect(handed[2]![kind]).toBe(handed[0]![kind]);
    expect(handed[1]![kind]).not.toBe(handed[0]![kind]);
  }
}
