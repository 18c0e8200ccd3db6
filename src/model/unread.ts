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
 * The first page whose rows were not read that may document a parameter by one of `names`: one
 * the row limit cut, or a page not parsed whose stub (`unreadReferenceStub`, src/engine/document-caps.ts) may document a parameter by
 * one of `names` (its name, aliases, a flag's spellings): one with no names (any parameter), or
 * one that shows one of them as code. Undefined when no such page (the finding stands).
 */
export function unreadMayDocument(docs: readonly DocFile[], names: Iterable<string>): DocFile | undefined {
  const keys = [...names].map(mentionKey);
  return docs.find((d) => {
    const cut = d.rowsCut;
    if (cut === undefined) return false;
    if (cut.names === undefined) return true;
    let set = mentionSets.get(cut.names);
    if (!set) mentionSets.set(cut.names, (set = new Set(cut.names)));
    return keys.some((k) => set.has(k));
  });
}

/** {@link unreadMayDocument}'s lookup sets, one per stub's names. */
const mentionSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Whether some page's rows were not read and may document any parameter (the row limit cut them, or a page not parsed shows no names: unreadable, too long to scan). */
export function rowsOfAnyNameCut(docs: readonly DocFile[]): DocFile | undefined {
  return docs.find((d) => d.rowsCut !== undefined && d.rowsCut.names === undefined);
}
