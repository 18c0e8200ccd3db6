/**
 * Paths indexed by their suffixes at `/` boundaries, for links that name a page by the end of its
 * path (a site route `/reference/cli`, a published URL, a `{doc}` role `/usage`). A trie of
 * reversed segments: each path costs one node per segment, and a lookup walks the route's
 * segments from the end, so the work is linear in path and route length. The earlier indexes
 * held every suffix of every path as a string (depth² characters a document: a folder 1,900 levels
 * deep took 1.25 GB, s30 sweep D7) or filtered every path per link (links × documents × path
 * length: 13.1 s for 10,000 links and 1,900 pages, s30 sweep D4), and a published URL tried every
 * suffix of its path as a string (segments²: one 60,000-segment link took 23.8 s, s30 sweep D6).
 */

/**
 * Maps each suffix of the indexed paths (`a/b/c` → `c`, `b/c`, `a/b/c`) to how many paths end
 * with it and the first of them. A suffix is compared segment by segment, as the strings
 * `path === route || path.endsWith('/' + route)` are.
 */
export class SuffixIndex {
  /** `${parent node}/${segment}` → child node; node 0 is the root (the empty suffix). */
  private readonly edges = new Map<string, number>();
  /** How many added paths end with the node's suffix (a path added twice counts twice). */
  private readonly counts: number[] = [0];
  /** The first path added with the node's suffix, and the value it was added with. */
  private readonly values: string[] = [''];

  /**
   * Indexes `path` (split at `/`; empty segments are segments too) under each of its suffixes.
   *
   * @param value what a lookup returns for it (the document's file)
   */
  add(path: string, value: string): void {
    const segments = path.split('/');
    let node = 0;
    for (let i = segments.length - 1; i >= 0; i--) {
      const key = `${node}/${segments[i]!}`;
      let child = this.edges.get(key);
      if (child === undefined) {
        child = this.counts.length;
        this.edges.set(key, child);
        this.counts.push(0);
        this.values.push(value);
      }
      this.counts[child]! += 1;
      node = child;
    }
  }

  /**
   * The value of the one indexed path that ends with `segments` (equals the route, or ends with
   * `/` and the route); undefined when none or several do, or `segments` is empty. Linear in the
   * route's length.
   */
  unique(segments: readonly string[]): string | undefined {
    let node = 0;
    for (let i = segments.length - 1; i >= 0; i--) {
      const child = this.edges.get(`${node}/${segments[i]!}`);
      if (child === undefined) return undefined;
      node = child;
    }
    return node !== 0 && this.counts[node] === 1 ? this.values[node] : undefined;
  }

  /**
   * The value of the one indexed path that ends with the longest suffix of `segments`, of at
   * least `minSegments` segments, that exactly one path ends with: what trying
   * `segments.slice(i)` for i = 0, 1, … and keeping the first unique match gives, in time linear
   * in the route (the walk from the end stops at the first suffix no path has).
   */
  longestUnique(segments: readonly string[], minSegments: number): string | undefined {
    let node = 0;
    let found: string | undefined;
    for (let i = segments.length - 1, depth = 1; i >= 0; i--, depth++) {
      const child = this.edges.get(`${node}/${segments[i]!}`);
      if (child === undefined) break;
      node = child;
      if (depth >= minSegments && this.counts[node] === 1) found = this.values[node];
    }
    return found;
  }
}
