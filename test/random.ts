/**
 * mulberry32, a 32-bit seeded generator (public domain, Tommy Ettinger): a deterministic sequence
 * in [0, 1), so a generated case is reproducible from its seed. Not for statistical quality. No
 * vitest import: the benchmark generator (test/bench/generate.ts) uses it too.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
