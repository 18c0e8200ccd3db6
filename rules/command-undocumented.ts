/** Rule: a command or sub-command with parameters is run in examples, or belongs to a documented program, but no reference section documents it. */
import type { Rule } from '../src/model/rule.js';
import { paramSource } from '../src/model/coverage.js';
import { rowsOfAnyNameCut, unreadMayDocument } from '../src/model/unread.js';
import type { CommandSpec, Heading, HeadingBlock, Model, SourceLocation } from '../src/model/types.js';
import { foldSpelling } from '../src/shared/names.js';

type Options = Record<string, never>;

/** The command a code span names: its whole text, or its leading words when no longer command name follows. */
function namesCommand(model: Model, code: string, cmd: CommandSpec): boolean {
  const text = code.trim().replace(/^\$\s+/, '');
  for (const n of [cmd.name, ...cmd.aliases]) {
    if (text === n) return true;
    if (!text.startsWith(`${n} `)) continue;
    // `tool show license` names the sub-command, not the program `tool`.
    const next = text.slice(n.length + 1).split(/\s+/)[0] ?? '';
    if (next.startsWith('-') || !model.commandByName(`${n} ${next}`)) return true;
  }
  return false;
}

/** Heading blocks (of any document that names a command) whose heading names `cmd` in inline code. */
function headingBlocks(model: Model, cmd: CommandSpec): Array<{ file: string; block: HeadingBlock }> {
  return headingBlockIndex(model).get(cmd) ?? [];
}

const headingBlockIndexes = new WeakMap<Model, Map<CommandSpec, Array<{ file: string; block: HeadingBlock }>>>();

/**
 * {@link headingBlocks} of every command, in one pass over the headings' code spans (per model).
 * A span names a command by its whole text or by leading words followed by a space
 * ({@link namesCommand}), so its candidates are its prefixes ending before a space, as long as the
 * longest command name or alias at most; each candidate is then checked with `namesCommand`, which
 * stays the definition. Was every command against every heading: commands x headings (NeMo Gym,
 * a language-server lint after a README edit: ~3 % of its time).
 */
function headingBlockIndex(model: Model): Map<CommandSpec, Array<{ file: string; block: HeadingBlock }>> {
  let index = headingBlockIndexes.get(model);
  if (index) return index;
  index = new Map();
  const byName = new Map<string, CommandSpec[]>();
  let longest = 0;
  for (const cmd of model.commands) {
    for (const n of new Set([cmd.name, ...cmd.aliases])) {
      const list = byName.get(n);
      if (list) list.push(cmd);
      else byName.set(n, [cmd]);
      longest = Math.max(longest, n.length);
    }
  }
  for (const doc of model.docs) {
    for (const block of doc.blocks) {
      const named = new Set<CommandSpec>();
      for (const code of block.heading.codes) {
        const text = code.trim().replace(/^\$\s+/, '');
        const candidates = [text];
        for (let i = text.indexOf(' '); i >= 0 && i <= longest; i = text.indexOf(' ', i + 1)) candidates.push(text.slice(0, i));
        for (const candidate of candidates) for (const cmd of byName.get(candidate) ?? []) if (!named.has(cmd) && namesCommand(model, code, cmd)) named.add(cmd);
      }
      // In command order, as the scan per command listed them: by document, then block.
      for (const cmd of named) {
        const list = index.get(cmd);
        if (list) list.push({ file: doc.file, block });
        else index.set(cmd, [{ file: doc.file, block }]);
      }
    }
  }
  headingBlockIndexes.set(model, index);
  return index;
}

/** True when a reference section or a heading documents the command. */
function documented(model: Model, cmd: CommandSpec): boolean {
  return model.sectionsFor(cmd).length > 0 || headingBlocks(model, cmd).length > 0;
}

/** The first place an example runs each command (sub-commands resolved word by word), in document order. */
function firstRuns(model: Model): Map<CommandSpec, SourceLocation> {
  const out = new Map<CommandSpec, SourceLocation>();
  for (const doc of model.docs) {
    // A change log's or blog post's runs are of their release (`$ pnpm dlx create-vite` in 2.0.0's notes).
    if (doc.historical) continue;
    for (const inv of doc.invocations) {
      let name = inv.command;
      let cmd = model.commandByName(name);
      if (!cmd) continue;
      for (const arg of inv.args) {
        if (arg.text.startsWith('-')) break;
        const sub = model.commandByName(`${name} ${arg.text}`);
        if (!sub) break;
        name = `${name} ${arg.text}`;
        cmd = sub;
      }
      if (!out.has(cmd)) out.set(cmd, inv.location);
    }
  }
  const historical = new Set(model.docs.filter((d) => d.historical).map((d) => d.file));
  for (const usage of model.usages) {
    if (historical.has(usage.location.file)) continue;
    const cmd = model.commandByName(usage.command);
    if (cmd && !out.has(cmd)) out.set(cmd, usage.location);
  }
  return out;
}

/** At most this many options make a command that prose can document without a reference table. */
const PROSE_OPTIONS = 3;

/**
 * Whether the section where a small command is run names every one of its options in inline code
 * (`` `--scope=workspace` ``, `` `gemini extensions update --all` ``): a guide section such as
 * "### Disabling an extension" that explains the only flag is its documentation, and a reference
 * table for one flag is not what the project is missing. Commands with more than
 * {@link PROSE_OPTIONS} options still need a reference.
 */
function explainedWhereRun(model: Model, cmd: CommandSpec, opts: readonly CommandSpec['params'][number][], run: SourceLocation): boolean {
  if (opts.length > PROSE_OPTIONS) return false;
  const doc = model.docs.find((d) => d.file === run.file);
  if (!doc) return false;
  // The innermost heading block holding the run.
  const block = doc.blocks.filter((b) => b.heading.location.line <= run.line && run.line <= b.endLine).sort((a, b) => b.heading.location.line - a.heading.location.line)[0];
  if (!block?.codes) return false;
  const named = new Set<string>();
  for (const code of block.codes) {
    for (const token of code.split(/\s+/)) {
      const m = /^--?([A-Za-z][\w-]*)/.exec(token);
      if (m) named.add(foldSpelling(m[1]!));
    }
  }
  return opts.every((p) => [p.name, ...p.aliases].some((n) => named.has(foldSpelling(n.replace(/^-+/, '')))));
}



/** The nearest ancestor (`tool show` for `tool show license`, then `tool`) that is a known command. */
function parentOf(model: Model, cmd: CommandSpec): CommandSpec | undefined {
  const words = cmd.name.split(/\s+/);
  for (let n = words.length - 1; n >= 1; n--) {
    const parent = model.commandByName(words.slice(0, n).join(' '));
    if (parent && parent !== cmd) return parent;
  }
  return undefined;
}

const rule: Rule<Options> = {
  meta: {
    id: 'command-undocumented',
    description:
      'Report commands and sub-commands that have parameters and are run in examples (or belong to a documented program) but that no reference section documents.',
    defaultSeverity: 'error',
    fixable: false,
    options: {},
    messages: {
      undocumented:
        '`{{command}}` has {{count}} ({{source}}) and is run here, but no reference section documents it, while the reference documents {{others}}.',
      undocumentedSubcommand:
        '`{{command}}` is a sub-command of `{{parent}}` with {{count}} ({{source}}), but no reference section documents it.',
      missingFromList:
        '`{{command}}` is a sub-command of `{{parent}}` but is missing from the list of its sub-commands here ({{listed}}).',
    },
  },
  check({ model, report }) {
    // Options count, positional arguments do not: a usage line in prose documents those.
    const options = (cmd: CommandSpec) => cmd.params.filter((p) => !p.hidden && !p.positional);
    // Scripts run as `python path.py` are repository helpers: their examples are checked, a reference is not expected.
    // A sub-command hidden from help or marked deprecated is not one users are meant to learn.
    const candidates = model.commands.filter((cmd) => cmd.paramsKnown && !cmd.script && cmd.kind !== 'config-file' && cmd.kind !== 'environment' && !cmd.hidden && !cmd.deprecated && options(cmd).length > 0);
    if (candidates.length === 0) return;
    // Some page's reference rows were not read (over the run's limit, `DocFile.rowsCut`): a
    // command's section may have been among them, found by its rows or by a configured heading
    // (s34 sweep D2). Nothing is known to be undocumented; the run's warning says why.
    if (rowsOfAnyNameCut(model.docs)) return;
    // A page not parsed withholds the commands it shows as code (`` ## `tool serve` ``), by their last word.
    const unread = (cmd: CommandSpec): boolean => unreadMayDocument(model.docs, [cmd.name.split(' ').at(-1)!]) !== undefined;
    const isDocumented = new Map(model.commands.map((c) => [c, documented(model, c)]));
    // Without a reference section (a table, list or parameter headings) for some command, the
    // project has no reference to be missing from: the first-run notes say so instead. A heading
    // that merely names the program ("What is `pipx`?") is no reference.
    // A section found only by its content (issue #29) is no sign of such a reference: a tutorial's
    // options table does not make every other sub-command undocumented.
    const documentedNames = model.commands.filter((c) => c.kind !== 'config-file' && c.kind !== 'environment' && model.sectionsFor(c).some((s) => !s.inferred)).map((c) => c.name);
    if (documentedNames.length === 0) return;
    const runs = firstRuns(model);
    // Parents and sub-command lists are worked out once per command and per parent: asked per
    // candidate over every command, they made 10,000 sub-commands take 100 million look-ups.
    const parents = new Map<CommandSpec, CommandSpec | undefined>();
    const parentOfCmd = (c: CommandSpec): CommandSpec | undefined => {
      if (!parents.has(c)) parents.set(c, parentOf(model, c));
      return parents.get(c);
    };
    let children: Map<CommandSpec, CommandSpec[]> | undefined;
    const childrenOf = (p: CommandSpec): CommandSpec[] => {
      if (!children) {
        children = new Map();
        // Hidden and deprecated sub-commands are not ones a listing must name.
        for (const c of model.commands) {
          if (c.hidden || c.deprecated) continue;
          const of = parentOfCmd(c);
          if (!of) continue;
          const list = children.get(of);
          if (list) list.push(c);
          else children.set(of, [c]);
        }
      }
      return children.get(p) ?? [];
    };
    type Blocks = ReturnType<typeof headingBlocks>;
    const listingCache = new Map<CommandSpec, Array<{ block: Blocks[number]; listed: CommandSpec[] }>>();
    /** Each block of the parent's sections with the sub-commands its inline codes name (`name` or `name …`), in command order. */
    const listingsOf = (p: CommandSpec, blocks: Blocks): Array<{ block: Blocks[number]; listed: CommandSpec[] }> => {
      const known = listingCache.get(p);
      if (known) return known;
      const kids = childrenOf(p);
      const byName = new Map(kids.map((c) => [c.name, c]));
      const out = blocks.map((b) => {
        const hit = new Set<CommandSpec>();
        for (const code of b.block.codes ?? []) {
          const words = code.trim().split(' ');
          // `code.trim() === s.name || code.trim().startsWith(`${s.name} `)`: every prefix of whole words.
          for (let n = 1; n <= Math.min(words.length, 64); n++) {
            const c = byName.get(words.slice(0, n).join(' '));
            if (c) hit.add(c);
          }
        }
        return { block: b, listed: kids.filter((c) => hit.has(c)) };
      });
      listingCache.set(p, out);
      return out;
    };
    for (const cmd of candidates) {
      if (unread(cmd)) continue;
      if (isDocumented.get(cmd)) continue;
      const n = options(cmd).length;
      const count = `${n} parameter${n === 1 ? '' : 's'}`;
      const source = paramSource(model, cmd) ?? '';
      const defined = cmd.location ? [{ ...cmd.location, message: `\`${cmd.name}\` is declared here` }] : [];
      const parent = parentOfCmd(cmd);
      const parentBlocks = parent && isDocumented.get(parent) ? headingBlocks(model, parent) : [];
      // A parent section that lists some of its sub-commands in inline code must list them all.
      const listings = parent && parentBlocks.length > 0 ? listingsOf(parent, parentBlocks) : [];
      const found = listings.find((l) => l.listed.some((s) => s !== cmd));
      const listing = found?.block;
      if (parent && listing && found) {
        const listed = found.listed.filter((s) => s !== cmd);
        report({
          messageId: 'missingFromList',
          data: {
            command: cmd.name,
            parent: parent.name,
            listed: listed.map((s) => `\`${s.name}\``).join(', '),
            item: `- \`${cmd.name}\``,
          },
          location: listing.block.heading.location,
          related: defined,
          suggestion: `- \`${cmd.name}\``,
        });
        continue;
      }
      const run = runs.get(cmd);
      if (run && explainedWhereRun(model, cmd, options(cmd), run)) continue;
      if (run) {
        const others = documentedNames.slice(0, 3).map((n) => `\`${n}\``).join(', ') + (documentedNames.length > 3 ? ` and ${documentedNames.length - 3} more` : '');
        report({
          messageId: 'undocumented',
          data: { command: cmd.name, count, source, others },
          location: run,
          related: defined,
        });
        continue;
      }
      const first: { file: string; block: { heading: Heading } } | undefined = parentBlocks[0];
      if (parent && first) {
        report({
          messageId: 'undocumentedSubcommand',
          data: { command: cmd.name, parent: parent.name, count, source },
          location: first.block.heading.location,
          related: defined,
        });
      }
    }
  },
};

export default rule;
