// A line's leading top-level fields read from its head: what it can tell, and where it must say
// it cannot (nested before the key, an escape, a value cut by the head, a key that only ends so).
import { describe, expect, it } from "vitest";
import { leadingField } from "../../../src/core/util/json-line-head";

describe("leadingField", () => {
  const line = '{"parentUuid":null,"isSidechain":false,"cwd":"/w","type":"user","message":{"type":"assistant"}}';

  it("reads plain top-level values before the first nested one", () => {
    expect(leadingField(line, "parentUuid")).toBeNull();
    expect(leadingField(line, "isSidechain")).toBe(false);
    expect(leadingField(line, "type")).toBe("user");
    expect(leadingField('{"isSidechain":true}', "isSidechain")).toBe(true);
  });

  it("says nothing of a key after a nested value, even one named the same at the top level", () => {
    expect(leadingField('{"message":{"type":"assistant"},"type":"assistant"}', "type")).toBeUndefined();
    expect(leadingField('{"a":[1],"type":"user"}', "type")).toBeUndefined();
    // A bracket inside a string is taken as an opening too: telling it apart would need a parse.
    expect(leadingField('{"cwd":"/a{b","type":"user"}', "type")).toBeUndefined();
  });

  it("says nothing when the value is cut by the head, escaped, or not a string or literal", () => {
    expect(leadingField('{"type":"assis', "type")).toBeUndefined();
    expect(leadingField('{"isSidechain":tru', "isSidechain")).toBeUndefined();
    expect(leadingField('{"type":"a\\"b","x":1}', "type")).toBeUndefined();
    expect(leadingField('{"type":12,"x":1}', "type")).toBeUndefined();
  });

  it("matches whole keys only, and only in an object line", () => {
    expect(leadingField('{"subtype":"compact_boundary","x":1}', "type")).toBeUndefined();
    expect(leadingField('{"xtype":"a","type":"b"}', "type")).toBe("b");
    expect(leadingField('["type":"user"]', "type")).toBeUndefined();
    // An escaped quote cannot close a string, so a key quoted inside a text is not taken for one.
    expect(leadingField('{"text":"say \\"type\\":\\"user\\"","type":"assistant"}', "type")).toBe("assistant");
  });
});
