/**
 * A small seeded generator (mulberry32): the same numbers for the same seed on every run and machine — the
 * benchmark's data, and the tests' random walks and kill points, which a seed printed by a failing run replays.
 */

/** Numbers in [0, 1), the same sequence for the same seed (a 32-bit integer; others are taken modulo 2^32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
