// An approximated request's system prompt is the last `prompt_snapshot` before its answer,
// whatever order the turns are asked in: a pass in order, then turns asked again earlier.
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../../../src/core/model";
import { buildTurnRequest } from "../../../../src/core/session/pipeline";
import { assistant, attachment, readClaude, user } from "./helpers";

const snapshot = (uuid: string, parent: string, text: string) => attachment(uuid, parent, { type: "prompt_snapshot", systemPrompt: [text, "tail"] });

describe("the system prompt of an approximated request", () => {
  const session = readClaude([
    user("u1", null, "first"),
    assistant("a1", "u1", "msg_1", [{ type: "text", text: "one" }]),
    snapshot("p1", "a1", "early prompt"),
    user("u2", "p1", "second"),
    assistant("a2", "u2", "msg_2", [{ type: "text", text: "two" }]),
    user("u3", "a2", "third"),
    assistant("a3", "u3", "msg_3", [{ type: "text", text: "three" }]),
    snapshot("p2", "a3", "late prompt"),
    user("u4", "p2", "fourth"),
    assistant("a4", "u4", "msg_4", [{ type: "text", text: "four" }]),
  ]);
  const options: PipelineOptions = { profile: "pi" };
  const systemText = (turn: number) => ((buildTurnRequest(session, options, turn).body.system as Record<string, unknown>[])[1]!.text as string);

  it("is the last snapshot before the answer, in order and asked again out of order", () => {
    const inOrder = [1, 2, 3, 4].map(systemText);
    expect(inOrder).toEqual(["[not recorded: system prompt]", "early prompt\n\ntail", "early prompt\n\ntail", "late prompt\n\ntail"]);
    expect([3, 1, 4, 2].map(systemText)).toEqual([inOrder[2], inOrder[0], inOrder[3], inOrder[1]]);
  });
});
