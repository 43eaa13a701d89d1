// URL view state (issue #6, design §4): the query string holds only file-less view state; bad or
// unknown values are ignored; the query wins over a share payload's view.
import { describe, expect, it } from "vitest";
import { mergeViews, readQueryView } from "../../src/page/urlState";

describe("readQueryView", () => {
  it("reads turn, tab, profile, provider, notes and leaf", () => {
    expect(readQueryView("?sample=pi-korean&turn=12&tab=messages&profile=senpi&provider=anthropic-messages&notes=on&leaf=a1b2")).toEqual({
      turn: 12,
      tab: "messages",
      profile: "senpi",
      provider: "anthropic-messages",
      notes: true,
      leafId: "a1b2",
    });
  });

  it("ignores malformed and unknown values", () => {
    expect(readQueryView("?turn=0&tab=evil&profile=Root%3Cb%3E&provider=ftp&notes=yes&leaf=")).toEqual({});
    // A profile of the right shape is kept here; opening the session drops one its agent does not offer.
    expect(readQueryView("?profile=root")).toEqual({ profile: "root" });
    expect(readQueryView("?turn=3x&__proto__=1")).toEqual({});
    expect(({} as Record<string, unknown>)["1"]).toBeUndefined();
  });
});

describe("mergeViews", () => {
  it("lets the override's fields win and keeps the rest", () => {
    expect(mergeViews({ turn: 4, tab: "messages", notes: true }, { turn: 7 })).toEqual({ turn: 7, tab: "messages", notes: true });
    expect(mergeViews(null, { turn: 2 })).toEqual({ turn: 2 });
    expect(mergeViews({ turn: 2 }, null)).toEqual({ turn: 2 });
  });
});
