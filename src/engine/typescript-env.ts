/**
 * The TypeScript/JavaScript part of the env-variable extraction (issue #31), for every project
 * with such sources (not only those with package.json `bin`s, whose programs the rest of the
 * TypeScript extraction reads): files are filtered by name and text first, and only those that
 * mention the environment (or may call a helper that reads it) are parsed, one syntax tree each,
 * the parser loaded lazily. Each file's result is a piece of the per-file cache, keyed by its path
 * and content, so a run after one edit parses that file only; calls of env helpers imported from
 * other files are resolved after, from the pieces, so the result equals a run without the cache.
 */
import path from 'node:path';
import type { EnvExtraction, InputDiagnostic, ParamSpec } from '../model/types.js';
import type { EnvHelper, FileEnv } from '../extract/typescript/env.js';
import { isGeneratedScript, mayCallEnvHelper, MAY_READ_ENV } from '../extract/typescript/env-filter.js';
import { NO_CACHE, type FactCache } from './facts.js';
import { collectEnvWords, MAX_ENV_WORD_SCAN, obsoleteEnvNames } from '../shared/env-words.js';

/** A file's text as read: `undefined` when it could not be read (reported by the reader). */
type Read = (file: string) => string | undefined;

let reader: Promise<typeof import('../extract/typescript/env.js')> | undefined;

/** One file's facts: from the fact cache, else read and (when the text may say something) parsed. */
function fileEnv(file: string, read: Read, cache: FactCache): Promise<FileEnv | undefined> {
  return cache.typeScriptFileEnv(file, read, (text) => envOfText(file, text));
}

/** The env facts of one file's text: parsed only when the text may read the environment or call a helper that does. */
async function envOfText(file: string, text: string): Promise<FileEnv> {
  let result: FileEnv = { vars: [], dynamic: [] };
  const generated = isGeneratedScript(file, text);
  if ((MAY_READ_ENV.test(text) || mayCallEnvHelper(text)) && !generated) {
    reader ??= import('../extract/typescript/env.js');
    result = (await reader).extractFileEnv(file, text);
  }
  // The words a documented variable may be mentioned by (not in a bundle or generated file).
  if (!generated && text.length <= MAX_ENV_WORD_SCAN) {
    const words = new Set<string>();
    collectEnvWords(text, words);
    if (words.size > 0) result = { ...result, words: [...words] };
    const obsolete = words.size > 0 ? obsoleteEnvNames(text) : [];
    if (obsolete.length > 0) result = { ...result, obsolete };
  }
  return result;
}

/** Where a relative import of `from` lands among `known` files, as Node/TypeScript/bundlers resolve it (`./env.js` → `env.ts`, `./env` → `env/index.ts`). */
function resolveImport(from: string, specifier: string, known: ReadonlyMap<string, unknown>): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stem = base.replace(/\.(?:[cm]?[jt]s|[jt]sx)$/, '');
  const candidates = [base, ...['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'].flatMap((ext) => [`${stem}${ext}`, `${base}/index${ext}`])];
  return candidates.find((c) => known.has(c));
}

/**
 * The environment variables the files read, in file order (each file's reads in source order),
 * then the reads through env helpers other files export (`getEnv('LOG_LEVEL')` where `getEnv`
 * reads `process.env[name]`), in the calling files' order. A helper's own read is dynamic unless
 * it is called, and every call found names its variable with a literal.
 *
 * @param files project-relative POSIX paths (see `envSourceFiles`), sorted
 * @param read reads a file, reporting one it cannot read
 * @param cache the run's fact cache (src/engine/facts.ts): a file whose piece is stored under its
 *   content hash is not read
 * @returns the reads, the words, and `diagnostics`: a `parse-error` warning per file the parser
 *   could not take (nested too deeply), in file order, stored with the file's piece so that a
 *   cached run says it too; never throws for such a file
 */
export async function typeScriptEnv(files: readonly string[], read: Read, cache: FactCache = NO_CACHE): Promise<EnvExtraction & { words: string[]; diagnostics: InputDiagnostic[] }> {
  const out: EnvExtraction & { words: string[]; diagnostics: InputDiagnostic[] } = { vars: [], dynamic: [], words: [], diagnostics: [] };
  const facts = new Map<string, FileEnv>();
  const words = new Set<string>();
  for (const file of files) {
    const result = await fileEnv(file, read, cache);
    if (!result) continue;
    facts.set(file, result);
    for (const v of result.vars) out.vars.push(v);
    for (const d of result.dynamic) out.dynamic.push(d);
    if (result.internal) (out.internal ??= []).push(...result.internal);
    if (result.obsolete) out.obsolete = [...new Set([...(out.obsolete ?? []), ...result.obsolete])];
    for (const w of result.words ?? []) words.add(w);
    for (const d of result.diagnostics ?? []) out.diagnostics.push(d);
  }
  out.words = [...words];
  // Calls of helpers other modules export: reads of the variables they name.
  const used = new Map<EnvHelper, { literal: number; other: number }>();
  const helperReads: ParamSpec[] = [];
  for (const [file, result] of facts) {
    for (const call of result.calls ?? []) {
      const target = resolveImport(file, call.specifier, facts);
      const helper = target === undefined ? undefined : facts.get(target)?.helpers?.find((h) => h.exported.includes(call.imported));
      if (!helper) continue;
      const count = used.get(helper) ?? { literal: 0, other: 0 };
      used.set(helper, count);
      const arg = call.args[helper.param];
      if (arg?.name === undefined || arg.location === undefined) {
        count.other++;
        continue;
      }
      count.literal++;
      const fallback = helper.defaultParam !== undefined ? call.args[helper.defaultParam]?.default : undefined;
      helperReads.push({
        name: arg.name,
        aliases: [],
        ...(fallback ? { default: fallback } : {}),
        required: fallback === undefined,
        deprecated: false,
        hidden: false,
        origin: 'env-var',
        owner: file,
        location: arg.location,
        envSource: 'read',
      });
    }
  }
  out.vars.push(...helperReads);
  // A helper's own read stays dynamic when no call names its variable, or some call computes it
  // (calls in its own file with a computed name already made it dynamic there).
  const at = (d: EnvExtraction['dynamic'][number]): string => `${d.location.file}:${d.location.line}:${d.location.column}`;
  const listed = new Set(out.dynamic.map(at));
  for (const result of facts.values()) {
    for (const helper of result.helpers ?? []) {
      const count = used.get(helper) ?? { literal: 0, other: 0 };
      const dynamic = count.other > 0 || count.literal + (helper.literalCalls ?? 0) === 0;
      if (dynamic && !listed.has(at(helper.dynamic))) {
        listed.add(at(helper.dynamic));
        out.dynamic.push(helper.dynamic);
      }
    }
  }
  return out;
}
