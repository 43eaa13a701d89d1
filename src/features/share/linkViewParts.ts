// The parts of the view a share link carries that belong to other features: today the Simulate
// panel's settings (the payload's `view.simulation` map, docs/share-format.md). The feature that
// owns a part gives its reader here through the page's mount (src/page/App.tsx), so the share
// feature needs no other feature; the link's bytes are what the reader returns, as before.
import type { ShareParams } from "../../app/shareExport";

/** The fields of a link's view other features fill. */
type ViewParts = Required<Pick<ShareParams, "simulation">>;

const readers: { [Name in keyof ViewParts]?: () => ViewParts[Name] } = {};

/** Gives the reader of one view part (each part has one owner; a second call replaces the first). */
export function provideLinkViewPart<Name extends keyof ViewParts>(name: Name, read: () => ViewParts[Name]): void {
  readers[name] = read;
}

/** The part's value for the link being built, null when no feature gives it. */
export function linkViewPart<Name extends keyof ViewParts>(name: Name): ViewParts[Name] | null {
  return readers[name]?.() ?? null;
}
