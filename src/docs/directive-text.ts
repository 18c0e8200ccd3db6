/** A cheap test on a document's raw text for suppression comments, without loading the Markdown parser. */

/**
 * Can the document hold a `docdrift-disable…`/`docdrift-enable` directive at all? Lets the
 * engine skip parsing the (many) documents that cannot. Kept apart from directives.ts so that
 * the main thread, which parses in a worker (bounded-parse.ts), never loads remark.
 */
export function mayHaveDirectives(text: string): boolean {
  return /docdrift-(?:disable|enable)/.test(text);
}
