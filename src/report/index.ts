/** The reporters by name: `stylish` (humans) and `json` (machines). */
import { formatJson } from './json.js';
import { formatStylish } from './stylish.js';
import type { Formatter } from './types.js';

export type { Formatter, FormatterOptions } from './types.js';
export type { JsonRelated, JsonReport, JsonResult } from './json.js';
export { formatJson, toJsonReport } from './json.js';
export { formatStylish } from './stylish.js';
export { sortMessages } from './sort.js';

/** Formatters by the name `--format` takes. Each sorts messages deterministically itself. */
export const formatters: Record<'stylish' | 'json', Formatter> = {
  stylish: formatStylish,
  json: formatJson,
};
