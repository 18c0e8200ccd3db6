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
    },
  },
  check({ model, options, report }) {
    // Group usages by document and command, keeping the first usage of each parameter.
    const groups = new Map<string, { cmd: CommandSpec; file: string; firsts: Map<ParamSpec, Usage> }>();
    for (const usage of model.usages) {
      if (!options.checkAgentFiles && isAgentInstructions(usage.file)) continue;
      // (Change logs, release notes and blog posts give no usages at all: see buildModel.)
      // Fragments other pages include have their links there; contributor guides run dev builds.
      const doc = model.doc(usage.file);
      if (doc?.partial || doc?.contributor) continue;
      const cmd = model.commandByName(usage.command);
      if (!cmd?.paramsKnown || model.globalParams.has(usage.name)) continue;
      const param = findParam(cmd, usage.name);
      if (!param) continue;
      const key = `${usage.file}\0${cmd.name}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { cmd, file: usage.file, firsts: new Map() }));
      if (!group.firsts.has(param)) group.firsts.set(param, usage);
    }
    for (const { cmd, file, firsts } of groups.values()) {
      const unexplained = [...firsts].filter(([param]) => {
        const rows = rowsFor(model, cmd, param);
        // Nothing documents it anywhere: that is example-param-undocumented's finding, not ours.
        if (rows.length === 0) return false;
        return !isExplained(model, file, param, rows);
      });
      const first = unexplained[0];
      if (!first) continue;
      const [, usage] = first;
      const target = linkTarget(model.sectionsFor(cmd), rowsFor(model, cmd, first[0]).map(({ section }) => section));
      if (!target) continue;
      const names = unexplained.map(([p]) => `\`${p.name}\``);
      // A heading's explicit id (`## Mutual exclusion {#mutual-exclusion}`) is its anchor on the docs site.
      const anchor = target.heading.anchors?.[0] ?? target.heading.slug;
      report({
        messageId: 'unexplained',
        data: {
          params: names.join(', '),
          them: names.length === 1 ? 'it' : 'them',
          command: cmd.name,
          link: relativeLink(file, target.file, anchor),
          count: String(names.length),
          // The finding is "this document's examples of the command link to no reference": its
          // identity (baseline key, SARIF fingerprint) must not change when another parameter
          // gains a reference row and joins `params`.
          subject: `examples of ${cmd.name}`,
        },
        location: usage.location,
        related: [
          { ...target.heading.location, message: `\`${cmd.name}\` reference section` },
          ...unexplained.slice(1).map(([p, u]) => ({ ...u.location, message: `\`${p.name}\` is also used here` })),
        ],
        suggestion: `[${cmd.name} reference](${relativeLink(file, target.file, anchor)})`,
      });
    }
  },
};

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
