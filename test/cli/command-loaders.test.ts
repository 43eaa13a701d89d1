// The two lists of commands agree: the one loaded at once for the usage texts (commands/index.ts)
// and the one that loads a command when it runs (commands/load.ts), in the same order, each name
// loading the very command the usage texts describe; an unknown name loads nothing.
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands";
import { COMMAND_NAMES, loadCommand } from "../../src/cli/commands/load";

describe("command loaders", () => {
  it("name the registry's commands in its order", () => {
    expect(COMMAND_NAMES).toEqual(COMMANDS.map((command) => command.name));
  });

  it("load the registry's command for each name", async () => {
    for (const command of COMMANDS) expect(await loadCommand(command.name)).toBe(command);
  });

  it("load nothing for an unknown name, even one Object has", async () => {
    expect(await loadCommand("no-such-command")).toBeNull();
    expect(await loadCommand("constructor")).toBeNull();
  });
});
