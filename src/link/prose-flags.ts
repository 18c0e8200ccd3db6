/**
 * CLI flags named in prose (issue #13 item 10): `` Pass the name to the `--vault_password_env_var`
 * CLI arg. `` is a usage of the page's command when the page belongs to exactly one command: the
 * innermost reference section around the sentence names one command, or every command section of
 * the page names the same one, or the project has a single command. Only flag-shaped code spans
 * (`--x`) count, never bare words; names the page's reference documents (a list item
 * `` - `--x`: … ``, its nested example) are left to the reference rules.
 */
import type { CommandSpec, DocFile, ProseFlag, ReferenceSection } from '../model/types.js';

import { isHistoryPage } from '../docs/page-kind.js';

/**
 * The prose flags of the documents, each tied to its page's command.
 *
 * @param isIgnored the config's `ignoreParameters` matcher; ignored names are dropped
 */
export function proseFlags(
  docs: readonly DocFile[],
  sections: readonly ReferenceSection[],
  commands: readonly CommandSpec[],
  commandByName: (name: string) => CommandSpec | undefined,
  isIgnored: (name: string) => boolean,
): ProseFlag[] {
  const runnable = commands.filter((c) => c.paramsKnown && !c.script && c.kind !== 'config-file');
  const only = runnable.length === 1 ? runnable[0] : undefined;
  const out: ProseFlag[] = [];
  for (const doc of docs) {
    // Changelogs, upgrade guides and blog posts name the flags of past releases on purpose.
    if (isHistoryPage(doc)) continue;
    const codes = (doc.proseCodes ?? []).filter((p) => p.flag);
    if (codes.length === 0) continue;
    const own = sections.filter((s) => s.file === doc.file && !s.global);
    // A name the page's reference documents is the reference rules' business (a stale row's
    // `Example: \`--proxy …\`` would repeat reference-param-unknown).
    const rowNames = new Set(sections.filter((s) => s.file === doc.file).flatMap((s) => s.rows.flatMap((r) => r.names)));
    const one = (list: readonly ReferenceSection[]): CommandSpec | undefined => {
      const found = new Set(list.flatMap((s) => s.commands.map(commandByName)).filter((c): c is CommandSpec => c !== undefined));
      return found.size === 1 ? [...found][0] : undefined;
    };
    const page = one(own);
    for (const code of codes) {
      if (rowNames.has(code.name) || isIgnored(code.name)) continue;
      const line = code.location.line;
      const around = own.filter((s) => s.heading.location.line <= line && line <= s.endLine).sort((a, b) => b.heading.location.line - a.heading.location.line)[0];
      const inSection = around ? one([around]) : undefined;
      const cmd = inSection ?? page ?? (own.length === 0 ? only : undefined);
      // Flags in prose are CLI flags: never a config file's keys.
      if (!cmd?.paramsKnown || cmd.kind === 'config-file') continue;
      const scope = inSection ? 'section' : page ? 'page' : 'project';
      out.push({ file: doc.file, command: cmd.name, name: code.name, raw: code.code, scope, location: code.location });
    }
  }
  return out;
}
