/**
 * Regular expressions from the code docdrift reads, run in linear time. JavaScript's engine
 * backtracks: a project's `/^(a+)+$/` against a 31-character file name took 50 s (s25 sweep D5),
 * and docdrift never lets the code it reads decide how long it runs. RE2's engine (the `re2js`
 * port, pure JavaScript) matches in time linear in the text; it does not take lookarounds or
 * back-references, which are then reported as not usable.
 */
import { RE2JS } from 're2js';

/**
 * A test like `RegExp.prototype.test` (a match anywhere in the text) for a JavaScript regular
 * expression literal's `source` and `flags` (`i`, `m` and `s` are honoured; `g`, `y`, `d`, `u`,
 * `v` change nothing for a test), or `undefined` when RE2 cannot compile it (a lookaround, a
 * back-reference, a syntax error). Never throws.
 */
export function linearRegExp(source: string, flags: string): ((text: string) => boolean) | undefined {
  let options = 0;
  if (flags.includes('i')) options |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) options |= RE2JS.MULTILINE;
  if (flags.includes('s')) options |= RE2JS.DOTALL;
  try {
    const re = RE2JS.compile(source, options);
    return (text) => re.matcher(text).find();
  } catch {
    return undefined;
  }
}
