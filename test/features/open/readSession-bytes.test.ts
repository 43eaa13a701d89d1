// The worker's streamed read hands the pi reader each line as bytes when readers keep stored
// texts: a File streamed in chunks gives the entries the string path gives (stored texts decoded),
// with the store on the session; closing the session (`releaseSessionTexts`) forgets the store,
// unless the session that replaces it still holds it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../src/core/model";
import { readSessionText } from "../../../src/core/session/index";
import { releaseSessionTexts } from "../../../src/core/session/textStores";
import { setReadersKeepStoredTexts } from "../../../src/core/text/storedTextsSwitch";
import { decodeStoredText, isStoredText, type StoredText } from "../../../src/core/text/storedText";
import { withTextsDecoded } from "../../../src/core/text/text";
import { readSession } from "../../../src/features/open/readSession";

const FILE = path.resolve(
  __dirname,
  "../../fixtures/pi/rpc-anthropic-manualcompact/session/--home-dev-pi-rpc-anthropic-manualcompact-lighthouse-notes--/2026-11-29T19-25-11-888Z_01a228c4-bd4f-721d-a5de-0c91492dc264.jsonl",
);
const control = { isCancelled: () => false, onProgress: () => undefined };

beforeAll(() => setReadersKeepStoredTexts(true));

function storedTexts(value: unknown): StoredText[] {
  if (isStoredText(value)) return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(storedTexts);
}

function firstStoredText(session: Session): StoredText {
  const [text] = session.entries.flatMap((entry) => storedTexts(entry.raw));
  if (!text) throw new Error("no stored text in the session");
  return text;
}

async function readFile(): Promise<Session> {
  const bytes = readFileSync(FILE);
  const file = new File([bytes], path.basename(FILE));
  return (await readSession({ kind: "file", file }, control)).session;
}

describe("the worker's streamed read, lines as bytes", () => {
  it("reads a File as the string path does, its large texts kept in the session's store", async () => {
    const session = await readFile();
    const expected = readSessionText(readFileSync(FILE, "utf8"), path.basename(FILE));
    expect(session.textStore).toBeDefined();
    expect({ ...session, textStore: undefined, entries: withTextsDecoded(session.entries) }).toEqual({ ...expected, textStore: undefined });
    releaseSessionTexts(session);
  });

  it("releases the store of a session closed, keeps the one the next session still holds", async () => {
    const session = await readFile();
    const text = firstStoredText(session);
    releaseSessionTexts(session, { ...session });
    expect(decodeStoredText(text).length).toBe(text.units);
    releaseSessionTexts(session);
    expect(() => decodeStoredText(text)).toThrow(/store is not known/);
  });
});
