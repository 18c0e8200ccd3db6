/** A bound on the inherited fields the config-type extractors (Python, TypeScript, JSON Schema) materialise in one run. */
import type { ConfigClass, InputDiagnostic, SourceLocation } from '../model/types.js';

/**
 * How many inherited fields (a field a config type lists because a base declares it) one
 * extractor materialises in one run, summed over all its types. Every type holds its inherited
 * fields and the model makes a candidate of each, so a fan of n types over one m-field base costs
 * n × m: 3,000 × 3,000 took 10-12 s CPU and 1.8-2.0 GB in each extractor (#33 sweep s27 D10, D11,
 * D14), about 220 bytes and 1.3 µs per inherited field from extraction to the model. Real projects
 * have a few hundred to a few thousand fields in all and at most tens of thousands inherited;
 * the depth-cut chains of the bad-input corpus (5,000 links cut every 64 levels) hold about
 * 160,000. 200,000 keeps all of those whole and costs at most about 45 MB and 0.3 s per extractor.
 * Past it a type gets its own fields only (types within the budget keep theirs), carries
 * `unreadFields`, and one warning per file names the first type so cut.
 */
export const MAX_INHERITED_FIELDS = 200_000;

type Cut = NonNullable<ConfigClass['unreadFields']>;

/** Counts the inherited fields of one extraction run against {@link MAX_INHERITED_FIELDS} and remembers where it cut. */
export class InheritedBudget {
  private used = 0;
  /** Per file: the first type the budget cut, and how many were. */
  private readonly notes = new Map<string, { cut: Cut; count: number }>();
  private readonly made = new WeakSet<Cut>();

  constructor(readonly limit = MAX_INHERITED_FIELDS) {}

  /** True, and counted, when `n` more inherited fields fit in the budget; false (nothing counted) when they do not. */
  take(n: number): boolean {
    if (n <= 0) return true;
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  /** The `unreadFields` of a type whose inherited fields the budget left out, counted for the file's warning. */
  cut(location: SourceLocation, construct: string): Cut {
    const cut: Cut = { location, construct: construct.slice(0, 80), cut: `the budget of ${this.limit.toLocaleString('en-US')} inherited fields per run` };
    this.made.add(cut);
    const note = this.notes.get(location.file);
    if (note) note.count++;
    else this.notes.set(location.file, { cut, count: 1 });
    return cut;
  }

  /** True for a cut made by {@link cut} (not by a depth limit). */
  isBudgetCut(cut: Cut): boolean {
    return this.made.has(cut);
  }

  /** One `parse-error` warning per file where the budget cut inherited fields, worded as the depth limits' warnings. */
  diagnostics(noun: 'class' | 'type'): InputDiagnostic[] {
    return [...this.notes.values()].map(({ cut, count }) => ({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${cut.location.file}:${cut.location.line}:${cut.location.column}: \`${cut.construct}\` is past ${cut.cut}: the fields it inherits from its bases are not read (${count} ${noun}${count === 1 ? '' : noun === 'class' ? 'es' : 's'} so cut); commands using them are partly known`,
      location: { file: cut.location.file, line: cut.location.line, column: cut.location.column },
    }));
  }
}
