// Public surface of prefix-stability analysis: segmentation, diff, causes, driver.
export { analyzePrefixes } from "./analyze";
export type { PrefixTurnInput } from "./analyze";
export type * from "./types";
