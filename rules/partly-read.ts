/**
 * Confidence instead of cascades (issue #29): when the names a command's examples pass (or a
 * reference section's rows) are mostly unknown to docdrift, its knowledge of the command is
 * incomplete, and the unknown names are reported once instead of one error each. Pure functions
 * shared by `example-param-unknown` and `reference-param-unknown`.
 */
import type { RelatedLocation, ReportDescriptor } from '../src/model/rule.js';
import { compareStrings } from '../src/shared/strings.js';

/** One finding a rule would report, held until the rule has seen all of a command's (or section's) evidence. */
export interface Judged {
  /** The parameter name the finding is about, as written in the docs (no dashes). */
  name: string;
  /**
   * True when what docdrift knows explains the name: it is close to a known parameter (a
   * suggestion), its first segment is one (a nested key), or it shares a word with one (a likely
   * rename, see {@link sharesWord}). Such findings are always reported one by one: a typo or a
   * renamed parameter is drift however little else docdrift read.
   */
  near: boolean;
  descriptor: ReportDescriptor;
}

/** What to report of a command's (or section's) held findings. */
export interface PartlyReadVerdict {
  /** Reported one by one, as before. */
  single: Judged[];
  /** Folded into one summary; empty when the knowledge looks complete. */
  folded: Judged[];
}

/**
 * Decides whether docdrift's knowledge of one command (or of what one reference section
 * documents) is incomplete, and splits its held findings accordingly.
 *
 * The knowledge is incomplete when at least `atUnknown` distinct names are *unexplained* (unknown
 * and close to no parameter), and the names docdrift can explain — `known` distinct names it
 * found among the parameters, plus the distinct near misses — are less than `belowShare` of all
 * distinct names. Then the unexplained findings are folded, the near misses stay single. A lone
 * typo among mostly known names, or a removed flag next to several known ones, is never folded.
 *
 * @param known distinct names that matched a parameter (examples) or rows that did (sections).
 * @param atUnknown 0 (or less) disables folding.
 */
export function partlyRead(list: readonly Judged[], known: number, atUnknown: number, belowShare: number): PartlyReadVerdict {
  const unexplained = new Set(list.filter((j) => !j.near).map((j) => j.name));
  const near = new Set(list.filter((j) => j.near).map((j) => j.name));
  for (const n of near) unexplained.delete(n);
  const total = known + near.size + unexplained.size;
  if (atUnknown <= 0 || unexplained.size < atUnknown || total === 0 || (known + near.size) / total >= belowShare) {
    return { single: [...list], folded: [] };
  }
  return { single: list.filter((j) => j.near || !unexplained.has(j.name)), folded: list.filter((j) => !j.near && unexplained.has(j.name)) };
}

/** How many names a summary message shows; the rest are counted, and all are in `data.params`. */
export const SHOWN_NAMES = 6;

/** Order of two locations: file, line, column. */
function byPlace(a: ReportDescriptor, b: ReportDescriptor): number {
  return compareStrings(a.location.file, b.location.file) || a.location.line - b.location.line || a.location.column - b.location.column;
}

/**
 * The shared parts of a summary of folded findings: where it is (the first folded finding by
 * file and line), the data its message interpolates, and one related location per shown name (its
 * first place).
 *
 * `data`: `count` distinct names, `names` the most used ones in backquotes (and "and N more"),
 * `params` every name in backquotes (what the JSON report, baselines and the corpus read), `uses`
 * folded findings, `pages` distinct files.
 */
export function summaryData(folded: readonly Judged[]): {
  location: ReportDescriptor['location'];
  data: Record<'count' | 'names' | 'params' | 'uses' | 'pages', string>;
  related: RelatedLocation[];
} {
  const sorted = [...folded].sort((a, b) => byPlace(a.descriptor, b.descriptor));
  const byName = new Map<string, Judged[]>();
  for (const j of sorted) {
    let list = byName.get(j.name);
    if (!list) byName.set(j.name, (list = []));
    list.push(j);
  }
  // Most used first; ties in order of first use.
  const names = [...byName.keys()].sort((a, b) => byName.get(b)!.length - byName.get(a)!.length);
  const shown = names.slice(0, SHOWN_NAMES);
  const rest = names.length - shown.length;
  const quoted = (list: string[]): string => list.map((n) => `\`${n}\``).join(', ');
  return {
    location: sorted[0]!.descriptor.location,
    data: {
      count: String(names.length),
      names: rest > 0 ? `${quoted(shown)} and ${rest} more` : quoted(shown),
      params: quoted(names),
      uses: String(folded.length),
      pages: String(new Set(folded.map((j) => j.descriptor.location.file)).size),
    },
    related: shown.map((n) => {
      const first = byName.get(n)![0]!;
      const times = byName.get(n)!.length;
      return { ...first.descriptor.location, message: `\`${n}\`${times > 1 ? ` (${times} uses)` : ''}` };
    }),
  };
}

/** The words of a parameter name, lowercased: `materialized_inputs_jsonl_fpath` → materialized, inputs, jsonl, fpath; `dataDir` → data, dir. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether an unknown name shares a word of at least four letters with one of `params` (their
 * words, from {@link wordsOf}): a renamed parameter usually keeps one (`input_jsonl_fpath` →
 * `materialized_inputs_jsonl_fpath`), and stale names after a rename are drift, not a part of
 * the CLI docdrift failed to read.
 */
export function sharesWord(name: string, paramWords: ReadonlySet<string>): boolean {
  return wordsOf(name).some((w) => w.length >= 4 && paramWords.has(w));
}
