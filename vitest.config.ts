// Unit tests: pure core and CLI code under Node. Browser journeys live in e2e/ (Playwright).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // A hang guard, not a speed check: a test that takes 15 s on a quiet machine takes three times
    // that on a shared two-core one, and a timeout there is a false failure.
    testTimeout: 120_000,
    // Says once per run when ../shared/fixtures is absent (its suites are then not registered).
    globalSetup: ["test/support/shared-notice.ts"],
    // Loads the tokenizer tables the hosts load before counting (src/core/tokens/tables.ts).
    setupFiles: ["test/support/tokenizer-tables.ts"],
  },
});
