// A small, fast, seedable pseudo-random generator (the mulberry32 algorithm), for everything that
// must make the same output from the same seed: the sample sessions, the benchmark generator and
// the fuzz mutators. Not for anything secret.

/** Numbers in [0, 1), the same sequence for the same seed on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
