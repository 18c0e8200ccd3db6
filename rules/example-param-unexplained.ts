/** Rule: a document uses a command's parameters in examples but links to nothing that explains them. */
import type { Rule } from '../src/model/rule.js';
import { findParam, isExplained, relativeLink, rowsFor } from '../src/model/query.js';
import type { CommandSpec, ParamSpec, ReferenceSection, Usage } from '../src/model/types.js';
import { isAgentInstructions } from '../src/shared/paths.js';

const rule: Rule = {
  meta: {
    id: 'example-param-unexplained',
    description:
      'Report documents whose examples use documented parameters without linking to the reference section or heading that explains them.',
    defaultSeverity: 'warn',
    fixable: false,
    options: {
      checkAgentFiles: {
        type: 'boolean',
        description:
          'Also check instruction files for coding agents (`AGENTS.md`, `AGENT.md`, `CLAUDE.md`, `GEMINI.md`, `.github/copilot-instructions.md`, `.github/instructions/*.instructions.md`, agent skills: `SKILL.md` and `skills/<name>/references/*.md`). Off by default: they are written for tools, not users, and need no link to the reference.',
        default: false,
      },
    },
    messages: {
      unexplained:
        'This document passes {{params}} to `{{command}}` but links to nothing that explains {{them}}.',
      unexplainedMany:
        'This document passes {{uses}} but links to nothing that explains them.',
    },
  },
  check({ model, options, report, inScope }) {
    // Group usages by document, then command, keeping the first usage of each parameter: one
    // finding per document (issue #32), naming every command and parameter it leaves unexplained.
    const documents = new Map<string, Map<CommandSpec, Map<ParamSpec, Usage>>>();
    for (const usage of model.usages) {
      // Its finding sits at one of the document's usages.
      if (!inScope(usage.file)) continue;
      if (!options.checkAgentFiles && isAgentInstructions(usage.file)) continue;
      // (Change logs, release notes and blog posts give no usages at all: see buildModel.)
      // Fragments other pages include have their links there; contributor guides run dev builds.
      const doc = model.doc(usage.file);
      if (doc?.partial || doc?.contributor) continue;
      // Env vars (issue #31) are judged against the env reference only, not for links to it.
      if (usage.syntax === 'env') continue;
      const cmd = model.commandByName(usage.command);
      if (!cmd?.paramsKnown || model.globalParams.has(usage.name)) continue;
      const param = findParam(cmd, usage.name);
      if (!param) continue;
      let commands = documents.get(usage.file);
      if (!commands) documents.set(usage.file, (commands = new Map()));
      let firsts = commands.get(cmd);
      if (!firsts) commands.set(cmd, (firsts = new Map()));
      if (!firsts.has(param)) firsts.set(param, usage);
    }
    for (const [file, commands] of documents) {
      const groups: UnexplainedGroup[] = [];
      for (const [cmd, firsts] of commands) {
        const unexplained = [...firsts].filter(([param]) => {
          const rows = rowsFor(model, cmd, param);
          // Nothing documents it anywhere: that is example-param-undocumented's finding, not ours.
          if (rows.length === 0) return false;
          return !isExplained(model, file, param, rows);
        });
        const first = unexplained[0];
        if (!first) continue;
        const target = linkTarget(model.sectionsFor(cmd), rowsFor(model, cmd, first[0]).map(({ section }) => section));
        if (!target) continue;
        // A heading's explicit id (`## Mutual exclusion {#mutual-exclusion}`) is its anchor on the docs site.
        const anchor = target.heading.anchors?.[0] ?? target.heading.slug;
        groups.push({ cmd, unexplained, target, link: relativeLink(file, target.file, anchor) });
      }
      if (groups.length === 0) continue;
      // The finding sits at the document's first unexplained usage; the others are related.
      const usages = groups.flatMap((g) => g.unexplained.map(([p, u]) => ({ p, u, g })));
      usages.sort((a, b) => a.u.location.line - b.u.location.line || a.u.location.column - b.u.location.column);
      const at = usages[0]!;
      groups.sort((a, b) => Number(a !== at.g) - Number(b !== at.g));
      const quote = (params: Array<[ParamSpec, Usage]>): string => params.map(([p]) => `\`${p.name}\``).join(', ');
      const all = groups.flatMap((g) => g.unexplained);
      const single = groups.length === 1 ? groups[0] : undefined;
      report({
        messageId: single ? 'unexplained' : 'unexplainedMany',
        data: {
          params: quote(all),
          them: all.length === 1 ? 'it' : 'them',
          command: groups[0]!.cmd.name,
          commands: groups.map((g) => `\`${g.cmd.name}\``).join(', '),
          uses: groups.map((g) => `${quote(g.unexplained)} to \`${g.cmd.name}\``).join('; '),
          link: groups[0]!.link,
          count: String(all.length),
          // The finding is "this document's examples link to no reference": its identity
          // (baseline key, SARIF fingerprint) must not change when another parameter gains a
          // reference row and joins `params`, or another command's examples join the document.
          subject: 'examples in this document',
        },
        location: at.u.location,
        related: [
          ...groups.map((g) => ({ ...g.target.heading.location, message: `\`${g.cmd.name}\` reference section` })),
          ...usages.filter((x) => x !== at).map(({ p, u }) => ({ ...u.location, message: `\`${p.name}\` is also used here` })),
        ],
        suggestion: groups.map((g) => `[${g.cmd.name} reference](${g.link})`).join(', '),
      });
    }
  },
};

/** One command's parameters a document uses without a link, and where the link should point. */
interface UnexplainedGroup {
  cmd: CommandSpec;
  /** Each unexplained parameter with its first usage in the document, in order of first use. */
  unexplained: Array<[ParamSpec, Usage]>;
  target: ReferenceSection;
  /** The relative link from the document to `target`'s heading. */
  link: string;
}

/**
 * The section the suggested link points at: the fullest section that documents the first
 * unexplained parameter (the command's own or a global options page), else the command's fullest
 * section; a section of user documentation before an agent-instruction copy of
 * it (`skills/<name>/references/cli-options.md`), which is not where a reader is sent.
 *
 * @param own the command's sections, fullest first ({@link Model.sectionsFor})
 * @param documenting the sections holding a row for the first unexplained parameter
 */
function linkTarget(own: readonly ReferenceSection[], documenting: readonly ReferenceSection[]): ReferenceSection | undefined {
  // The fullest section documenting it: a global options page's 13-row table before a tutorial's
  // three-row overview; among equals, the command's own order (fullest reference first).
  const rank = (s: ReferenceSection): number => (own.includes(s) ? own.indexOf(s) : own.length);
  const holding = [...new Set(documenting)].sort((a, b) => b.rows.length - a.rows.length || rank(a) - rank(b));
  const ranked = [...holding, ...own.filter((s) => !documenting.includes(s))];
  return ranked.find((s) => !isAgentInstructions(s.file)) ?? ranked[0];
}

export default rule;
