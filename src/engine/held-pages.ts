/**
 * Open pages whose text the caller does not hold (#33 s46 sweep H4). The language server keeps no
 * text of an open page over the document limit ({@link MAX_DOCUMENT_LENGTH}, 1 Mi UTF-16 code
 * units): such a page is never parsed, and four open pages of 60 MB held whole took its thread past
 * its 256 MB heap limit. What a run's verdict on such a page reads of its text is worked out once,
 * when the text arrives ({@link heldPage}), and the text is let go:
 *
 * - whether the run's mention matcher accepts it (src/engine/doc-texts.ts `triage`: a page that
 *   names no command is not read, and gets no warning). The matcher is the one of the caller's
 *   last run; a run whose matcher is another (the code changed its commands since, or no run had
 *   ended when the text arrived) does not know, and reads the page as one that names a command;
 * - whether it is a file of docdrift's own `--summary` reports (`isSummaryReport`);
 * - its stub for the references (src/engine/document-caps.ts `unreadReferenceStub`: the names it
 *   shows as code, or none for a change log);
 * - its length, for the "Not read: it is 60.0 MB, over the 1 MB limit" warning and the parse order.
 *
 * Its suppression comments are not read (a page not read has none for the run; a CLI run asks the
 * document worker for them, which parses the whole text under the parse budget).
 */
import { MAX_DOCUMENT_LENGTH } from '../docs/limits.js';
import { isSummaryReport } from '../shared/report-marker.js';
import type { HeldPage, MentionMatcher } from './doc-texts.js';
import { unreadReferenceStub } from './document-caps.js';

export type { HeldPage };

/**
 * The {@link HeldPage} of `text` as the project file `file`, judged with `matcher` (the caller's
 * last run's; none: its mentions are unknown to every run). Reads the whole text: its cost is one
 * scan of the page by the matcher and one by the stub (`codeMentions` reads at most 4 Mi code units).
 *
 * @throws {RangeError} when `text` is within {@link MAX_DOCUMENT_LENGTH} (such a page is parsed, and its text held).
 */
export function heldPage(file: string, text: string, matcher: MentionMatcher | undefined): HeldPage {
  if (text.length <= MAX_DOCUMENT_LENGTH) throw new RangeError(`a page of ${text.length} code units is within the document limit: its text is held`);
  const report = isSummaryReport(text);
  const judged = matcher === undefined || report ? undefined : { key: matcher.key, value: matcher.test(text) };
  return {
    length: text.length,
    report,
    mentions: (asked) => (judged !== undefined && asked.key === judged.key ? judged.value : undefined),
    stub: unreadReferenceStub(file, text),
  };
}
