// Public surface of provider cache rules, simulation and usage normalisation (CA-*).
export * from "./rules";
export * from "./usage";
export * from "./expiry";
export * from "./simulate";
export * from "./compare";
