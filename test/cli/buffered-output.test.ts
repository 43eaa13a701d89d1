// Standard output in large writes: the text and its order are unchanged, a full buffer is written
// at once, the rest when the scheduled callback runs or on flush().
import { describe, expect, it } from "vitest";
import { bufferedOutput } from "../../src/cli/bufferedOutput";

function harness(limit: number) {
  const writes: string[] = [];
  const scheduled: (() => void)[] = [];
  const output = bufferedOutput((text) => writes.push(text), (callback) => scheduled.push(callback), limit);
  return { writes, scheduled, output };
}

describe("bufferedOutput", () => {
  it("joins consecutive lines into one write when the scheduled callback runs", () => {
    const { writes, scheduled, output } = harness(1000);
    output.write("a\n");
    output.write("b\n");
    output.write("c\n");
    expect(writes).toEqual([]);
    expect(scheduled).toHaveLength(1);
    scheduled[0]!();
    expect(writes).toEqual(["a\nb\nc\n"]);
  });

  it("writes at once when the limit is reached, and keeps the order across writes", () => {
    const { writes, scheduled, output } = harness(4);
    output.write("ab");
    output.write("cd"); // reaches 4: written now
    output.write("e");
    expect(writes).toEqual(["abcd"]);
    scheduled.forEach((callback) => callback());
    expect(writes).toEqual(["abcd", "e"]);
    expect(writes.join("")).toBe("abcde");
  });

  it("flush() writes what is waiting; nothing is written twice or when nothing waits", () => {
    const { writes, scheduled, output } = harness(1000);
    output.flush();
    expect(writes).toEqual([]);
    output.write("x");
    output.flush();
    scheduled.forEach((callback) => callback());
    expect(writes).toEqual(["x"]);
    output.write("");
    output.flush();
    expect(writes).toEqual(["x"]);
  });

  it("schedules again after the scheduled write has run", () => {
    const { writes, scheduled, output } = harness(1000);
    output.write("1");
    scheduled.shift()!();
    output.write("2");
    expect(scheduled).toHaveLength(1);
    scheduled.shift()!();
    expect(writes).toEqual(["1", "2"]);
  });
});
