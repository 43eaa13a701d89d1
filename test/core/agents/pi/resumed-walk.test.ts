// A walk resumed on a grown session (the provisional view of a file still being read, then the
// whole file; a followed file that grew) keeps a turn's projection for the newest turns only:
// each projection copies its turn's whole context, so keeping one for every turn the resumed walk
// meets is work per turn × context (a 100,000-turn session took minutes to open in a tab). The
// analysis and the newest turns' requests still equal those of the session read afresh.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { PathProjector } from "../../../../src/core/agents/pi/projection";
import { MAX_TURN_PROJECTIONS } from "../../../../src/core/agents/pi/sessionCache";
import { SessionFollower } from "../../../../src/core/session/follow";
import { analyzeSession, buildTurnRequest } from "../../../../src/core/session/index";
import { assistant, chain, toJsonl, user, type EntryInput } from "./sessionBuilder";

const OPTIONS: PipelineOptions = { profile: "pi", leafId: null, api: null, header: null, notes: false };
const TURNS = 200;

function sessionText(): string {
  const entries: EntryInput[] = [];
  for (let turn = 1; turn <= TURNS; turn++) entries.push(user(`u${turn}`, `prompt ${turn}`), assistant(`a${turn}`, `answer ${turn}`));
  return toJsonl(chain(entries));
}

/** The session after reading `text` up to `cut` (a line end), then after reading the rest. */
function grownSessions(text: string, cut: number): { early: Session; whole: Session } {
  const follower = new SessionFollower("grown.jsonl", (bytes) => new TextDecoder().decode(bytes));
  const bytes = new TextEncoder().encode(text);
  follower.append(bytes.subarray(0, cut));
  const early = follower.session()!;
  analyzeSession(early, OPTIONS);
  follower.append(bytes.subarray(cut));
  return { early, whole: follower.session()! };
}

function freshSession(text: string): Session {
  const follower = new SessionFollower("fresh.jsonl", (bytes) => new TextDecoder().decode(bytes));
  follower.append(new TextEncoder().encode(text));
  return follower.session()!;
}

describe("a resumed pi walk", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps projections of the newest turns only, however many turns it meets", () => {
    const text = sessionText();
    // Cut after the twentieth turn: the resumed walk meets 180 turns.
    const cut = text.split("\n").slice(0, 1 + 40).join("\n").length + 1;
    const { early, whole } = grownSessions(text, cut);
    expect(whole).not.toBe(early);
    const snapshots = vi.spyOn(PathProjector.prototype, "snapshot");
    const analysis = analyzeSession(whole, OPTIONS);
    expect(analysis.turns).toHaveLength(TURNS);
    expect(snapshots.mock.calls.length).toBeLessThanOrEqual(MAX_TURN_PROJECTIONS);
    expect(snapshots.mock.calls.length).toBeGreaterThan(0);
  });

  it("gives the analysis and the requests a fresh read gives", () => {
    const text = sessionText();
    const cut = text.split("\n").slice(0, 1 + 40).join("\n").length + 1;
    const { whole } = grownSessions(text, cut);
    const fresh = freshSession(text);
    expect(analyzeSession(whole, OPTIONS)).toEqual(analyzeSession(fresh, OPTIONS));
    for (const turn of [1, 21, TURNS - MAX_TURN_PROJECTIONS, TURNS - 1, TURNS]) {
      expect(buildTurnRequest(whole, OPTIONS, turn).body).toEqual(buildTurnRequest(fresh, OPTIONS, turn).body);
    }
  });
});
