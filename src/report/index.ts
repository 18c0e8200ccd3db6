/** The reporters by name: `stylish` (humans), `json` (machines), `sarif` (code scanning), `github` (Actions annotations). */
import { formatGithub } from './github.js';
import { formatJson, streamJson } from './json.js';
import { formatSarif, streamSarif } from './sarif.js';
import { formatStylish } from './stylish.js';
import type { DriftMessage } from '../model/rule.js';
import type { ReportSink } from './stream.js';
import type { Formatter, FormatterOptions } from './types.js';

export type { Formatter, FormatterOptions } from './types.js';
export type { JsonRelated, JsonReport, JsonResult } from './json.js';
export { formatJson, streamJson, toJsonReport } from './json.js';
export { formatStylish } from './stylish.js';
export { formatSarif, streamSarif, toSarifLog } from './sarif.js';
export type { ReportSink } from './stream.js';
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

/**
 * The formatters whose report can be large (one JSON value per finding) as writers: each writes
 * the same text as its formatter to a {@link ReportSink}, piece by piece, so the CLI never holds
 * the whole report (#33 s31 D6).
 */
export const streamingFormatters: Partial<Record<keyof typeof formatters, (messages: DriftMessage[], options: FormatterOptions, sink: ReportSink) => void>> = {
  json: streamJson,
  sarif: streamSarif,
};
