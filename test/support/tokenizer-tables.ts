// Unit tests count tokens synchronously through the core, as the hosts do once they have loaded
// the tables (src/core/tokens/tables.ts): every test file starts with both tables loaded.
// test/core/tokens/tables.test.ts checks the unloaded state in fresh modules.
import { loadTokenizerTables } from "../../src/core/tokens/tables";

await loadTokenizerTables(["o200k", "claude"]);
