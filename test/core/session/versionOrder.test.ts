import { describe, expect, it } from "vitest";
import { compareVersions } from "../../../src/core/session/versionOrder";

describe("compareVersions", () => {
  it("orders semver-like versions part by part as numbers, not as text", () => {
    expect(compareVersions("2.1.232", "2.1.332")).toBeLessThan(0);
    // As text "2.1.40" sorts after "2.1.332"; as a version it is older.
    expect(compareVersions("2.1.40", "2.1.332")).toBeLessThan(0);
    expect(compareVersions("2.1.400", "2.1.332")).toBeGreaterThan(0);
    expect(compareVersions("0.171.0", "0.40.0")).toBeGreaterThan(0);
    expect(compareVersions("1.18.33", "1.18.33")).toBe(0);
    expect(compareVersions("2.1", "2.1.0")).toBe(0);
  });
  it("puts a lettered pre-release before its release and orders pre-releases", () => {
    expect(compareVersions("0.1.0-rc.8", "0.1.0")).toBeLessThan(0);
    expect(compareVersions("0.1.0", "0.1.0-rc.8")).toBeGreaterThan(0);
    expect(compareVersions("0.1.0-rc.9", "0.1.0-rc.8")).toBeGreaterThan(0);
    expect(compareVersions("0.1.0-rc.10", "0.1.0-rc.9")).toBeGreaterThan(0);
    expect(compareVersions("0.1.1-rc.1", "0.1.0")).toBeGreaterThan(0);
  });
  it("takes a numeric suffix of a date-like version as a later build of the same day", () => {
    expect(compareVersions("2026.8.22-2", "2026.8.22")).toBeGreaterThan(0);
    expect(compareVersions("2026.8.22-3", "2026.8.22-2")).toBeGreaterThan(0);
    expect(compareVersions("2026.8.22-2", "2026.9.1")).toBeLessThan(0);
    expect(compareVersions("2026.10.1", "2026.9.30-4")).toBeGreaterThan(0);
  });
  it("claims nothing about a string that is not a version", () => {
    expect(compareVersions("unknown", "2.1.332")).toBeNull();
    expect(compareVersions("2.1.332", "")).toBeNull();
  });
});
