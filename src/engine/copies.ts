/**
 * Copies of a page (translations like `docs/zh/…`, versioned trees like
 * `versioned_docs/version-2.x/…`, mirrored folders such as agent skills) repeat the same drift:
 * the same finding on N copies is reported once, on the original, with the copies listed in
 * `related` (issue #29). Copies that disagree (a finding only some of them have, or with other
 * data) keep their own findings. Pure: reads and returns messages, never changes them.
 *
 * The CLI folds the findings it reports, after the baseline and the path scope: the engine's
 * results, the baseline, `--fix` and the editor keep one finding per copy (a fix edits each file,
 * and an editor shows the finding in the copy being edited).
 */
import type { DriftMessage } from '../model/rule.js';
import { compareStrings } from '../shared/strings.js';
import { isVersionFolder } from './versions.js';

/**
 * Language codes (ISO 639-1) that name a translation folder, alone or with a region or script
 * (`zh-CN`, `zh_CN`, `zh-Hans`, `pt-BR`).
 */
const LANGUAGES = new Set(
  'ar bg bn ca cs da de el en es et fa fi fr he hi hu id it ja ko lt lv ms nb nl no pl pt ro ru sk sl sr sv ta te th tr uk ur vi zh'.split(' '),
);
const LOCALE = /^([a-z]{2})(?:[-_](?:[A-Za-z]{2}|[A-Z][a-z]{3}|\d{3}))?$/;
/** Folders that hold copies rather than pages: translation roots and version trees. */
const WRAPPERS = new Set(['i18n', 'l10n', 'locales', 'locale', 'translations', 'versioned_docs', 'versions', 'docusaurus-plugin-content-docs']);

/** A language tag such as `zh`, `zh-CN`, `zh_Hans`, `pt-BR`. */
function isLocale(text: string): boolean {
  const locale = LOCALE.exec(text);
  return locale !== null && LANGUAGES.has(locale[1]!);
}

/** Whether a folder name marks a copy: a language, a version, or a folder of copies. */
function isCopyMarker(segment: string): boolean {
  return isLocale(segment) || isVersionFolder(segment) || WRAPPERS.has(segment);
}

/**
 * A document path without the folders that mark a copy, and how many were left out. Docusaurus
 * copies of `docs/…` (`versioned_docs/version-2.x/…`, `i18n/<lang>/docusaurus-plugin-content-docs/current/…`)
 * become `docs/…`.
 */
export function copyPath(file: string): { segments: string[]; markers: number } {
  const parts = file.split('/');
  let base = parts.pop()!;
  const kept: string[] = [];
  let markers = 0;
  // A translation next to its page: `README.zh-CN.md`, `index.ja.mdx`, `README_zh.md`.
  const suffixed = /^(.+?)[._-]([A-Za-z]{2}(?:[-_][A-Za-z]{2,4})?)(\.[^.]+)$/.exec(base);
  if (suffixed && isLocale(suffixed[2]!)) {
    base = suffixed[1]! + suffixed[3]!;
    markers++;
  }
  for (let i = 0; i < parts.length; i++) {
    const s = parts[i]!;
    const next = parts[i + 1];
    if ((s === 'versioned_docs' && next?.startsWith('version-')) || (s === 'docusaurus-plugin-content-docs' && next !== undefined)) {
      kept.push('docs');
      markers += 2;
      i++;
    } else if (isCopyMarker(s)) markers++;
    else kept.push(s);
  }
  return { segments: [...kept, base], markers };
}

/** Folder names too common to tell a mirrored folder (`a/docs/x.md` and `b/docs/x.md` are two projects' pages). */
const GENERIC_FOLDERS = new Set(['docs', 'doc', 'documentation', 'src', 'example', 'examples', 'pages', 'content', 'guide', 'guides', 'reference']);

/**
 * Whether two documents are copies of one page: their paths are the same once the folders that
 * mark a copy are left out (languages, versions, `i18n`, `versioned_docs`: `docs/zh/cli.md` and
 * `docs/cli.md`, `website/i18n/ja/docusaurus-plugin-content-docs/current/cli.md` and
 * `website/docs/cli.md`), or they end with the same folder and file, the folder not a generic one
 * (mirrored folders: `.claude/skills/deploy/SKILL.md` and `.agents/skills/deploy/SKILL.md`).
 * Two READMEs of two packages (`a/README.md`, `b/README.md`) are not copies. Callers also
 * require the same findings (see {@link foldCopies}): a path alone never makes a copy.
 */
export function areCopies(a: string, b: string): boolean {
  return a !== b && copyKey(copyPath(a).segments) === copyKey(copyPath(b).segments);
}

/**
 * The key of the copies a document belongs to: two different documents are copies
 * ({@link areCopies}) exactly when their keys are equal. A path that ends with a folder that is
 * not generic and a file is keyed by those two (mirrored folders; paths that are the same once
 * the copy folders are left out end the same too); any other path by all its segments. Joined
 * with `/`, which no segment holds, so different segments never make the same key.
 */
export function copyKey(segments: readonly string[]): string {
  const folder = segments.length >= 2 ? segments[segments.length - 2]! : undefined;
  if (folder !== undefined && !GENERIC_FOLDERS.has(folder.toLowerCase())) return `tail:${folder}/${segments[segments.length - 1]!}`;
  return `path:${segments.join('/')}`;
}

/** What makes two findings the same drift: rule, message and its data (command, parameter, suggestion…), not the position. */
function findingKey(m: DriftMessage): string {
  const data = Object.keys(m.data)
    .sort()
    .map((k) => [k, m.data[k]]);
  return JSON.stringify([m.ruleId, m.messageId, m.severity, data]);
}

/** A document's place among its copies, worked out once per file. */
interface CopyInfo {
  key: string;
  markers: number;
  depth: number;
}

function copyInfo(file: string): CopyInfo {
  const { segments, markers } = copyPath(file);
  return { key: copyKey(segments), markers, depth: file.split('/').length };
}

/** The original of a set of copies: fewest copy folders, then the shortest path, then by name. */
function originalFirst(info: ReadonlyMap<string, CopyInfo>): (a: string, b: string) => number {
  return (a, b) => {
    const ia = info.get(a)!;
    const ib = info.get(b)!;
    return ia.markers - ib.markers || ia.depth - ib.depth || compareStrings(a, b);
  };
}

const byPosition = (a: DriftMessage, b: DriftMessage): number => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);

/**
 * Reports the same finding on copies of a page once. Findings are grouped by rule, message and
 * data; within a group, files that are copies of each other ({@link areCopies}) are joined, and
 * the n-th finding of each copy (by position) is folded into the n-th finding of the original
 * as a `related` location ("the same in the copy …"). A copy's extra findings, and findings whose
 * data differ between copies, stay as they are. The input order of the kept messages is kept.
 */
export function foldCopies(messages: readonly DriftMessage[]): DriftMessage[] {
  const groups = new Map<string, Map<string, DriftMessage[]>>();
  for (const m of messages) {
    if (typeof m.file !== 'string') continue;
    const key = findingKey(m);
    let files = groups.get(key);
    if (!files) groups.set(key, (files = new Map()));
    let list = files.get(m.file);
    if (!list) files.set(m.file, (list = []));
    list.push(m);
  }
  const dropped = new Set<DriftMessage>();
  const extended = new Map<DriftMessage, DriftMessage>();
  // Each file's copy key is worked out once, and the files of a group are joined by key: being
  // copies is an equivalence ({@link copyKey}), so the first file of a key (in original-first
  // order) is the original and the others its copies, in that order. Comparing every pair of
  // files was quadratic: 3,000 pages sharing one finding took 20 s and more (#33 sweep 23, D7).
  const info = new Map<string, CopyInfo>();
  for (const files of groups.values()) {
    if (files.size < 2) continue;
    for (const f of files.keys()) if (!info.has(f)) info.set(f, copyInfo(f));
  }
  const order = originalFirst(info);
  for (const files of groups.values()) {
    if (files.size < 2) continue;
    const byKey = new Map<string, string[]>();
    for (const f of [...files.keys()].sort(order)) {
      const key = info.get(f)!.key;
      const same = byKey.get(key);
      if (same) same.push(f);
      else byKey.set(key, [f]);
    }
    for (const [original, ...copies] of byKey.values()) {
      if (original === undefined || copies.length === 0) continue;
      const own = [...files.get(original)!].sort(byPosition);
      // Each copy's findings sorted once, not once per finding of the original.
      const twins = copies.map((f) => [...files.get(f)!].sort(byPosition));
      own.forEach((m, i) => {
        const folded: DriftMessage[] = [];
        for (const list of twins) {
          const twin = list[i];
          if (twin) folded.push(twin);
        }
        if (folded.length === 0) return;
        for (const twin of folded) dropped.add(twin);
        // A copy of the message (a VFileMessage keeps its fields as own properties).
        const kept = Object.assign(Object.create(Object.getPrototypeOf(m) as object) as DriftMessage, m, {
          related: [
            ...m.related,
            ...folded.map((t) => ({
              file: t.file as string,
              line: t.line ?? 1,
              column: t.column ?? 1,
              message: `the same in the copy ${t.file as string}`,
            })),
          ],
        });
        extended.set(m, kept);
      });
    }
  }
  return messages.filter((m) => !dropped.has(m)).map((m) => extended.get(m) ?? m);
}
