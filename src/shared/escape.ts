/** Escaping of text from documents and code before it reaches a terminal or a log. */

/**
 * Control characters and invisible direction overrides, which a repository's text (a parameter
 * name, a heading, a file name) must never deliver raw to a terminal or a CI log: C0 controls
 * but tab and line feed, DEL, C1 controls (U+0080–U+009F: in 8-bit terminals `U+009B` is a CSI),
 * and the bidirectional overrides and isolates that reorder what a reader sees ("Trojan Source",
 * CVE-2021-42574): U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069; and the Unicode line
 * and paragraph separators U+2028, U+2029, which editors, browsers and log viewers break lines
 * at (a file name holding one could forge a line there as a line feed can).
 */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028-\u202E\u2066-\u2069]/g;

/**
 * `text` with every unsafe character ({@link UNSAFE}) written as a visible escape: `\x1b` for a
 * code point below U+0100, `\u202e` above. A backslash itself is left alone (the output is for
 * reading, not for parsing back). ESC, CR, BEL, OSC/CSI introducers therefore never reach the
 * terminal: no colour reset, window title, clipboard write (OSC 52) or overwritten line.
 */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * {@link escapeControls} for text that must stay on one line (a file name in a finding's line or
 * a stderr note): line feeds are written `\n` as well, so a file named `a\nREADME.md:1:1 error …`
 * cannot forge a line of output (#33 item 13).
 */
export function escapeLine(text: string): string {
  return escapeControls(text).replace(/\n/g, '\\n');
}
