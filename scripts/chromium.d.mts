// Types for scripts/chromium.mjs, so the Playwright config and e2e tests can import it.
export declare const CHROMIUM_CANDIDATES: string[];
export declare function findChromium(): string | null;
export declare const CHROMIUM_ARGS: string[];
