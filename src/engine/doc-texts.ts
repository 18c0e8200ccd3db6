/**
 * The documents' texts of one run, read only when needed. Deciding which pages to parse (stage
 * "parse docs" in lint.ts) needs two facts of each page's text: does it name a command (the
 * run's mention matcher) and may it hold suppression comments (`mayHaveDirectives`). A run that
 * knows every file's content hash (the run cache's) and has the per-file cache finds both in one
 * stored table per matcher, and reads no page whose facts and parse are stored: at 10x the
 * synthetic bench repository, reading and decoding 2,530 unchanged pages cost ~200 ms of a 2.6 s
 * run after a README edit.
 */
import { isSummaryReport } from '../shared/report-marker.js';
import { mayHaveDirectives } from '../docs/directive-text.js';
import type { FactCache } from './facts.js';
import { orderFacts, type OrderFacts } from './parse-order.js';
import type { DocFile } from '../model/types.js';

/** Reads a project file's text (`ReadFile` in lint.ts): `undefined` when it cannot be read. */
type ReadFile = (file: string) => string | undefined;

/** A cheap test on raw document text (`mentionMatcher` in lint.ts), with a key that names what it tests. */
export interface MentionMatcher {
  test(text: string): boolean;
  /**
   * Equal for two matchers that accept the same texts: the command names (deduplicated, sorted)
   * and the heading patterns, as JSON. The per-file cache keeps each page's answer under it.
   */
  key: string;
}

/** An open page given to a run by what its verdict needs instead of its text (src/engine/held-pages.ts, whose `heldPage` makes one). */
export interface HeldPage {
  /** Length of its text in UTF-16 code units, over the document limit (`MAX_DOCUMENT_LENGTH`, src/docs/limits.ts). */
  length: number;
  /** `isSummaryReport(text)`: a file of docdrift's own reports, not documentation. */
  report: boolean;
  /** Whether `matcher` accepts its text; `undefined` when that is not known (another matcher than the one it was judged with). */
  mentions(matcher: MentionMatcher): boolean | undefined;
  /** `unreadReferenceStub(file, text)`, without a run's mention budget (the run charges it). */
  stub: DocFile | undefined;
}

/** What {@link DocTexts.triage} tells of one page. */
export interface PageFacts {
  /** The matcher accepts the text (it names a command or holds a matching heading). */
  mentions: boolean;
  /** `mayHaveDirectives(text)`: the page may hold `docdrift-disable` comments. */
  directives: boolean;
  /**
   * The page is a file of docdrift's own `--summary` reports (`isSummaryReport`): not read as
   * documentation (`mentions` and `directives` are false), and the run says so in a note.
   */
  report: boolean;
  /** What the parse order and the run's line limit need of the text (src/engine/parse-order.ts). */
  order: OrderFacts;
}

/** A stored table: one row per page, `[path, content hash, mentions, directives, report, [length, lines, group]]`. */
type StoredTable = Array<[string, string, boolean, boolean, boolean, [number, number, 1 | 2 | 3]]>;

/** Whether a stored row's order column is well formed (rows stored before it was added are judged again). */
function isOrderColumn(value: unknown): value is [number, number, 1 | 2 | 3] {
  return Array.isArray(value) && value.length === 3 && Number.isSafeInteger(value[0]) && Number.isSafeInteger(value[1]) && (value[2] === 1 || value[2] === 2 || value[2] === 3);
}

/** The pages' texts and facts of one run (see {@link docTexts}). */
export interface DocTexts {
  /**
   * The page's text, read on the first call and kept. A page that cannot be read gives
   * `undefined`; the reader reports it (unless `quiet`), and a later call reads again.
   */
  text(file: string, quiet?: boolean): string | undefined;
  /**
   * The page's {@link PageFacts} under `matcher`: from the stored table when the page's content
   * hash is the one it was judged at, else from its text. `undefined` when the page cannot be read.
   */
  triage(file: string, matcher: MentionMatcher, quiet?: boolean): PageFacts | undefined;
  /** Stores the tables this run changed (pages judged from their text) in the per-file cache. */
  save(): void;
  /** The page's {@link HeldPage} when the run is given no text of it (`held` of {@link docTexts}); undefined otherwise. */
  held?(file: string): HeldPage | undefined;
}

/**
 * Creates the run's {@link DocTexts}.
 *
 * @param read reads and reports (a `parse-error` for an unreadable file); `readQuietly` reads
 *   without reporting (for guesses made before the run asks)
 * @param cache the run's fact cache (src/engine/facts.ts): a page whose `pieceHash` it knows is
 *   judged from its stored row at that hash; every other page (no store, no run-cache hashes, an
 *   overlay of edited texts, a hash recorded as an error) is read and judged, its problem reported.
 * @param held open pages given by their facts, not their text (src/engine/held-pages.ts): never
 *   read (`text` is `undefined` for them, quietly), and triaged from their facts: mentions as the
 *   page's matcher judged them (unknown: as a page that names a command), no suppression comments,
 *   and the order facts of a text over the document limit (no lines counted, last group).
 */
export function docTexts(read: ReadFile, readQuietly: ReadFile, cache: FactCache, held?: ReadonlyMap<string, HeldPage>): DocTexts {
  const texts = new Map<string, string>();
  const text = (file: string, quiet = false): string | undefined => {
    if (held?.has(file)) return undefined;
    let value = texts.get(file);
    if (value === undefined) {
      value = (quiet ? readQuietly : read)(file);
      if (value !== undefined) texts.set(file, value);
    }
    return value;
  };
  // Per matcher key: the stored rows by path, and the rows of this run (written back when changed).
  const tables = new Map<string, { stored: Map<string, StoredTable[number]>; rows: Map<string, StoredTable[number]>; changed: boolean }>();
  const tableOf = (key: string) => {
    let table = tables.get(key);
    if (!table) {
      const stored = cache.triageTable<StoredTable[number]>(key);
      table = { stored: new Map((stored ?? []).map((row) => [row[0], row])), rows: new Map(), changed: false };
      tables.set(key, table);
    }
    return table;
  };
  return {
    text,
    held: (file) => held?.get(file),
    triage(file, matcher, quiet = false) {
      const page = held?.get(file);
      if (page !== undefined) {
        const order: OrderFacts = { length: page.length, lines: 0, group: 3 };
        return page.report ? { mentions: false, directives: false, report: true, order } : { mentions: page.mentions(matcher) ?? true, directives: false, report: false, order };
      }
      const hash = cache.pieceHash(file);
      const table = hash !== undefined ? tableOf(matcher.key) : undefined;
      if (table) {
        const row = table.rows.get(file) ?? table.stored.get(file);
        // A row stored before the `report` or the order column was added is judged again.
        if (row && row[1] === hash && typeof row[4] === 'boolean' && isOrderColumn(row[5])) {
          table.rows.set(file, row);
          return { mentions: row[2], directives: row[3], report: row[4], order: { length: row[5][0], lines: row[5][1], group: row[5][2] } };
        }
      }
      const value = text(file, quiet);
      if (value === undefined) return undefined;
      // docdrift's own --summary report is no documentation (SUMMARY_MARKER).
      const order = orderFacts(value);
      const facts: PageFacts = isSummaryReport(value) ? { mentions: false, directives: false, report: true, order } : { mentions: matcher.test(value), directives: mayHaveDirectives(value), report: false, order };
      if (table) {
        table.rows.set(file, [file, hash!, facts.mentions, facts.directives, facts.report, [order.length, order.lines, order.group]]);
        table.changed = true;
      }
      return facts;
    },
    save() {
      for (const [key, table] of tables) {
        // Rows of pages this run did not ask about (a page gone) are dropped. An unchanged table
        // was read by this run, so it is kept as it is.
        if (table.changed || table.rows.size !== table.stored.size) cache.setTriageTable(key, [...table.rows.values()]);
      }
    },
  };
}
