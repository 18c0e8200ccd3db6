/**
 * Pages whose reference rows a run did not read ({@link DocFile.rowsCut}): which parameters they
 * may document. A page the row limit cut, or one not parsed whose text was not scanned, may
 * document any; one not parsed whose text was scanned, only those it shows as code.
 */
import type { DocFile } from './types.js';

/** A name as `codeMentions` (src/engine/document-caps.ts) keeps it and as parameters are looked up in it: leading dashes dropped, lower case, `-` as `_` (`--Dry-Run` and `dry_run` meet). */
export function mentionKey(name: string): string {
  return name.replace(/^-+/, '').toLowerCase().replace(/-/g, '_');
}

/**
 * The first page whose rows were not read that may document a parameter by one of `names` (its
 * name, aliases, a flag's spellings): one the row limit cut or one not scanned (any parameter), or
 * a page not parsed (`unreadReferenceStub`, src/engine/document-caps.ts) that shows one of them as
 * code. Undefined when there is none: the finding stands.
 */
export function unreadMayDocument(docs: readonly DocFile[], names: Iterable<string>): DocFile | undefined {
  // One page (isExplained asks with `[doc]`, a new list per call): its own field answers, without
  // a memo entry per call (a WeakMap entry per usage and parameter was ~1 % of a language-server
  // lint on NeMo Gym, and garbage).
  if (docs.length === 1) {
    const doc = docs[0]!;
    if (doc.rowsCut === undefined || doc.rowsCut.names?.length === 0) return undefined;
    if (!doc.rowsCut.names) return doc;
    const shown = nameSet(doc.rowsCut.names);
    for (const name of names) if (shown.has(mentionKey(name))) return doc;
    return undefined;
  }
  const cut = cutPages(docs);
  if (cut.length === 0) return undefined;
  const keys = [...names].map(mentionKey);
  return cut.find(({ names: shown }) => shown === undefined || keys.some((k) => shown.has(k)))?.doc;
}

/**
 * Pages whose rows were not read and may document some parameter, in `docs` order, with their
 * names as a set (undefined: any); computed once per document list, since the rules ask per
 * usage and per parameter. A change log past its own row limit (`names: []`) withholds nothing.
 */
function cutPages(docs: readonly DocFile[]): ReadonlyArray<{ doc: DocFile; names?: ReadonlySet<string> }> {
  let cut = cutPagesOf.get(docs);
  if (!cut) {
    cut = docs.flatMap((doc) => (doc.rowsCut === undefined || doc.rowsCut.names?.length === 0 ? [] : [{ doc, ...(doc.rowsCut.names ? { names: nameSet(doc.rowsCut.names) } : {}) }]));
    cutPagesOf.set(docs, cut);
  }
  return cut;
}

const cutPagesOf = new WeakMap<readonly DocFile[], ReadonlyArray<{ doc: DocFile; names?: ReadonlySet<string> }>>();

/** A stub's names as a set, made once per stub (isExplained asks with one-page lists, `[doc]`, new each time). */
function nameSet(names: readonly string[]): ReadonlySet<string> {
  let set = nameSets.get(names);
  if (!set) nameSets.set(names, (set = new Set(names)));
  return set;
}

const nameSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The first page whose rows were not read and that may document some parameter (what notes and `--summary` name), or undefined. */
export function rowsNotRead(docs: readonly DocFile[]): DocFile | undefined {
  return cutPages(docs)[0]?.doc;
}

/** Whether some page's rows were not read and may document any parameter (the row limit cut them, or a page not parsed shows no names: unreadable, too long to scan). */
export function rowsOfAnyNameCut(docs: readonly DocFile[]): DocFile | undefined {
  return docs.find((d) => d.rowsCut !== undefined && d.rowsCut.names === undefined);
}

/** Where the run says why `doc`'s rows were not read, for notes: its `parse-error` warning, unless the stub says otherwise ({@link DocFile.rowsCut}'s `why`). */
export function whyNotRead(doc: DocFile): string {
  return doc.rowsCut?.why ?? 'see its parse-error warning';
}
