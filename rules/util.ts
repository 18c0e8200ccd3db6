/** Small helpers shared by rules: text for suggested reference rows. Pure functions. */
import { formatDefault } from '../src/model/compare.js';
import type { ParamSpec } from '../src/model/types.js';
import { joinLines } from '../src/shared/strings.js';
import { cellCode, rowSpelling } from '../src/fix/reference-edits.js';

/** Escapes text for a GFM table cell (pipes and line breaks). */
export function tableCell(text: string): string {
  return joinLines(text.replace(/\|/g, '\\|')).trim();
}

/**
 * A reference table row for a parameter, in the common `| Parameter | Type | Description |`
 * layout, the default appended as "Default: `x`." (the phrase docdrift reads back).
 */
export function referenceRowText(param: ParamSpec, key = param.name): string {
  const description = [param.description ?? '', param.default ? `Default: \`${formatDefault(param.default)}\`.` : '']
    .filter(Boolean)
    .join(' ');
  // A flag's row spells it as users type it, in a code span the table reads back whole: a pipe
  // escaped (`p \| q`), backticks fenced (s38 sweep D2: `| `p | q` |` split the cell when pasted).
  return `| ${cellCode(rowSpelling(param, key))} | ${tableCell(param.type ?? '')} | ${tableCell(description)} |`;
}

/** The message of a parameter's definition site: "`x` is defined here (Owner)", without "()" when the owner is unknown. */
export function definedHere(name: string, owner: string | undefined): string {
  return owner ? `\`${name}\` is defined here (${owner})` : `\`${name}\` is defined here`;
}
