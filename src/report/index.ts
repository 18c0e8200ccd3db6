/** The reporters by name: `stylish` (humans), `json` (machines), `sarif` (code scanning), `github` (Actions annotations). */
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatStylish } from './stylish.js';
import type { Formatter } from './types.js';

export type { Formatter, FormatterOptions } from './types.js';
export type { JsonRelated, JsonReport, JsonResult } from './json.js';
export { formatJson, toJsonReport } from './json.js';
export { formatStylish } from './stylish.js';
export { formatSarif, toSarifLog } from './sarif.js';
export { formatGithub } from './github.js';
// The --summary report (summary.ts) is not re-exported: it loads mdast-util-to-markdown, which the CLI
// imports only when --summary asks for it.
export { sortMessages } from './sort.js';

/** Formatters by the name `--format` takes. Each sorts messages deterministically itself. */
export const formatters: Record<'stylish' | 'json' | 'sarif' | 'github', Formatter> = {
  stylish: formatStylish,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
};
