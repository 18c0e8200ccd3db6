/** Rule: an example passes a parameter the command does not have (misspelled or removed). */
import type { ReportDescriptor, Rule } from '../src/model/rule.js';
import { abbreviatedName, NameIndex, suggestNames } from '../src/shared/names.js';
import { configClassNames, isGlobalParam, definedBy, findParam, nestedKeys, paramNames, paramNameSet, resolveKey, suggestionIndex } from '../src/model/query.js';
import { flagSpelling } from '../src/model/flag-spelling.js';
import { ENVIRONMENT_COMMAND, type CommandSpec, type ParamSpec } from '../src/model/types.js';
import { partlyRead, sharesWord, summaryData, wordsOf, type Judged } from './partly-read.js';

interface Options {
  reportUnknownNamespaces: boolean;
  reportKeysReadElsewhere: boolean;
  checkProse: boolean;
  summarizeAtUnknown: number;
  summarizeBelowKnownShare: number;
}

const rule: Rule<Options> = {
  meta: {
    id: 'example-param-unknown',
    description: 'Report parameters passed in examples that the command\'s code does not define, suggesting the nearest real name.',
    defaultSeverity: 'error',
    fixable: false,
    options: {
      reportUnknownNamespaces: {
        type: 'boolean',
        description:
          'Also report dotted keys (`a.b=1`) whose first segment is unknown and close to no parameter. Off by default: Hydra configs often address open namespaces such as server instances by name.',
        default: false,
      },
      reportKeysReadElsewhere: {
        type: 'boolean',
        description:
          'Also report Hydra overrides that are not parameters of the command but that the code of its package reads elsewhere (a field of a helper config class, or a string key such as `cfg.get("name")`). Off by default: Hydra apps share one global config.',
        default: false,
      },
      checkProse: {
        type: 'boolean',
        description:
          'Also check CLI flags named in prose inline code (`` Pass `--vault_password_env_var`. ``) on a page that belongs to one command (its reference section, or a single-command project), and environment variables a sentence names as such (`` the `APP_MODE` environment variable ``). Reported with their own messageIds, `unknownInProse`/`unknownInProseWithSuggestion` and `unknownEnvInProse`/`unknownEnvInProseWithSuggestion`.',
        default: true,
      },
      summarizeAtUnknown: {
        type: 'number',
        description:
          'When a command\'s examples pass at least this many distinct names that it does not define and that are close to none of its parameters, and its known parameters explain less than `summarizeBelowKnownShare` of the distinct names they pass, docdrift has most likely not read part of its CLI: those names are reported once, as one `partlyRead` warning for the command, instead of once per example. 0 never summarizes.',
        default: 3,
      },
      summarizeBelowKnownShare: {
        type: 'number',
        description:
          'The share (0 to 1) of the distinct names a command\'s examples pass that its known parameters must explain (defined, or close to a defined one) for its unknown names to be reported one by one; see `summarizeAtUnknown`.',
        default: 0.5,
      },
    },
    messages: {
      unknownWithSuggestion:
        '`{{name}}` is not a parameter of `{{command}}` (config: {{classes}}). Did you mean `{{suggestion}}`?',
      unknown:
        '`{{name}}` is not a parameter of `{{command}}` (config: {{classes}}).',
      unknownEnvWithSuggestion:
        'The example sets environment variable `{{name}}`, which the code never reads. Did you mean `{{suggestion}}`?',
      unknownEnv:
        'The example sets environment variable `{{name}}`, which the code never reads.',
      unknownEnvInProseWithSuggestion:
        'Environment variable `{{name}}` is named in prose, but the code never reads it. Did you mean `{{suggestion}}`?',
      unknownEnvInProse:
        'Environment variable `{{name}}` is named in prose, but the code never reads it.',
      unknownSubkeyWithSuggestion:
        '`{{key}}`: `{{segment}}` is not a field of {{owner}} (the type of `{{prefix}}` in `{{command}}`). Did you mean `{{suggestion}}`?',
      unknownShortAlias:
        '`-{{name}}` is not a flag of `{{command}}` (config: {{classes}}); it may be an undeclared short alias of `{{flag}}`, the only parameter starting with `{{name}}`.',
      misspeltFlag:
        '`{{written}}` is not a flag of `{{command}}` (config: {{classes}}): the code declares it as `{{flag}}`, and its parser rejects other dashes.',
      unknownInProse:
        '`--{{name}}` is named in prose on a page of `{{command}}` but is not one of its parameters (config: {{classes}}).',
      unknownInProseWithSuggestion:
        '`--{{name}}` is named in prose on a page of `{{command}}` but is not one of its parameters (config: {{classes}}). Did you mean `{{flag}}`?',
      unknownSubcommandWithSuggestion:
        '`{{name}}` is not a sub-command of `{{command}}` (its sub-commands: {{subcommands}}), so the rest of this example is not checked. Did you mean `{{suggestion}}`?',
      unknownSubkey:
        '`{{key}}`: `{{segment}}` is not a field of {{owner}} (the type of `{{prefix}}` in `{{command}}`).',
      partlyRead:
        'docdrift knows only part of the parameters of `{{command}}` (config: {{classes}}): its examples pass {{count}} names it does not find in the code ({{names}}; {{uses}} uses on {{pages}} pages) and {{known}} that it does, so they are reported once, here.',
    },
  },
  check({ model, options, report: emit }) {
    // Findings are held per command until its examples are all seen: a command whose known
    // parameters explain only a small part of what its examples pass gets one summary instead.
    const judged = new Map<CommandSpec, Judged[]>();
    // A command's named parameters (not positional, names over one letter) by lower-case
    // initial, in order, once per command: copied and filtered per one-letter unknown flag, 8,000
    // examples passing `-z` to a command of 8,000 flags cost 1.7 s of the rules (s29 audit).
    const initials = new Map<CommandSpec, Map<string, ParamSpec[]>>();
    const initialsOf = (cmd: CommandSpec): Map<string, ParamSpec[]> => {
      let byInitial = initials.get(cmd);
      if (byInitial) return byInitial;
      byInitial = new Map();
      for (const p of [...cmd.params, ...(cmd.acceptedParams ?? [])]) {
        if (p.positional || p.name.length <= 1) continue;
        const initial = p.name[0]!.toLowerCase();
        const list = byInitial.get(initial);
        if (list) list.push(p);
        else byInitial.set(initial, [p]);
      }
      initials.set(cmd, byInitial);
      return byInitial;
    };
    const knownUsed = new Map<CommandSpec, Set<string>>();
    const words = new Map<CommandSpec, Set<string>>();
    // The nested keys of each command by their last segment, indexed once (asked per unknown usage).
    const leafIndexes = new Map<CommandSpec, { leaves: Map<string, string[]>; index: NameIndex }>();
    const leavesOf = (cmd: CommandSpec): { leaves: Map<string, string[]>; index: NameIndex } => {
      let found = leafIndexes.get(cmd);
      if (!found) {
        const leaves = new Map<string, string[]>();
        // Past the nested-key budget (a warning says so) only the keys listed are indexed: a
        // suggestion is then made from part of the tree, never a finding about a key below it,
        // which `resolveKey` checks segment by segment.
        for (const { key } of cmd.params.flatMap((p) => nestedKeys(model, p).keys)) {
          const last = key.split('.').pop()!;
          const list = leaves.get(last);
          if (list) list.push(key);
          else leaves.set(last, [key]);
        }
        leafIndexes.set(cmd, (found = { leaves, index: new NameIndex(leaves.keys()) }));
      }
      return found;
    };
    const hold = (cmd: CommandSpec, name: string, near: boolean, d: ReportDescriptor): void => {
      let list = judged.get(cmd);
      if (!list) judged.set(cmd, (list = []));
      let own = words.get(cmd);
      if (!own) words.set(cmd, (own = new Set(paramNames(cmd).flatMap(wordsOf))));
      // An env var shares its project's first word with every other one: only a did-you-mean makes it near.
      list.push({ name, near: near || (d.messageId !== 'unknownEnv' && d.messageId !== 'unknownEnvInProse' && sharesWord(name, own)), descriptor: d });
    };
    const used = (cmd: CommandSpec, name: string): void => {
      let set = knownUsed.get(cmd);
      if (!set) knownUsed.set(cmd, (set = new Set()));
      set.add(name);
    };
    for (const usage of model.usages) {
      const cmd = model.commandByName(usage.command);
      if (!cmd?.paramsKnown || isGlobalParam(model, cmd, usage.name, usage.syntax)) continue;
      // click/typer `ignore_unknown_options`: the command passes undeclared flags and overrides on.
      // Options made at run time (`unreadFlags`, said in a note): only near misses of the flags
      // docdrift read are drift there; a command handing flags on to another program passes any.
      if (cmd.passesUnknownFlags && !cmd.unreadFlags && !paramNameSet(cmd).has(usage.name)) continue;
      // A near miss, a nested key below a known parameter and the initial of exactly one parameter
      // (a likely short alias) are explained by what docdrift knows; only `unknown` is not.
      const report = (d: ReportDescriptor): void => {
        if (cmd.unreadFlags && (d.messageId === 'unknown' || cmd.unreadFlags.cut !== undefined)) return;
        hold(cmd, usage.name, d.messageId !== 'unknown' && d.messageId !== 'unknownEnv', d);
      };
      if (paramNameSet(cmd).has(usage.name)) {
        used(cmd, usage.name);
        // A dotted key below a nested config class must name one of its fields.
        const segments = usage.keySegments ?? usage.key.split('.');
        const resolved = segments.length === 1 ? undefined : resolveKey(model, cmd, segments, { flag: usage.syntax === 'flag' });
        if (resolved?.status !== 'unknown-subkey') continue;
        const segment = segments[resolved.index] ?? '';
        const [near] = suggestNames(segment, resolved.owner.fields.flatMap((f) => [f.name, ...f.aliases]), 1);
        const suggested = near ? `${resolved.prefix}.${near}` : undefined;
        report({
          messageId: suggested ? 'unknownSubkeyWithSuggestion' : 'unknownSubkey',
          data: {
            key: usage.key,
            segment,
            prefix: resolved.prefix,
            owner: resolved.owner.name,
            command: cmd.name,
            ...(suggested ? { suggestion: suggested } : {}),
          },
          location: usage.location,
          related: [{ ...resolved.owner.location, message: `\`${resolved.prefix}\` is typed by ${resolved.owner.name}` }],
          suggestion: suggested ? usage.raw.replace(usage.key, suggested) : undefined,
        });
        continue;
      }
      const dotted = usage.key !== usage.name;
      // A one-letter flag is one keystroke from every other one-letter flag: a "did you mean `h`"
      // would be noise. When it is the initial of exactly one parameter, it is likely a short alias
      // the code declares in a way docdrift does not read.
      if (usage.syntax === 'flag' && usage.name.length === 1) {
        const initialOf = initialsOf(cmd).get(usage.name.toLowerCase()) ?? [];
        const classes = configClassNames([cmd], model);
        const only = initialOf.length === 1 ? initialOf[0]!.name : undefined;
        const flag = only !== undefined ? flagSpelling(initialOf[0]!, only) : undefined;
        report({
          messageId: only ? 'unknownShortAlias' : 'unknown',
          data: { name: usage.name, key: usage.key, command: cmd.name, classes, ...(only ? { suggestion: only, flag: flag! } : {}) },
          location: usage.location,
          related: [...(only ? [{ ...initialOf[0]!.location, message: `\`${flag!}\` is declared here` }] : []), ...definedBy(model, cmd)],
        });
        continue;
      }
      // The nearest parameter, else the nearest nested key whose last segment is close
      // (`temperature=0.7` for `sampling.temperature`).
      let [suggestion] = suggestNames(usage.name, suggestionIndex(model, cmd, usage.syntax), 1);
      // Issue #31: an env var set in an example and read nowhere is drift only in the project's
      // namespace or as a near miss (`QDRANT_SEARCH_LIM`); `CUDA_VISIBLE_DEVICES=0 tool` sets
      // another program's variable, and one the code mentions may be read in a way docdrift missed.
      if (usage.syntax === 'env') {
        // A word cut short or spelled out (`GITHUB_REPOSITORY` for the `GITHUB_REPO` the code reads).
        suggestion ??= abbreviatedName(usage.name, paramNames(cmd));
        const status = model.envNameStatus?.(usage.name) ?? 'excluded';
        if (status === 'excluded' || (status === 'foreign' && !suggestion)) continue;
        report({
          messageId: suggestion ? 'unknownEnvWithSuggestion' : 'unknownEnv',
          data: { name: usage.name, key: usage.key, command: cmd.name, ...(suggestion ? { suggestion } : {}) },
          location: usage.location,
          related: definedBy(model, cmd),
          suggestion: suggestion ? usage.raw.replace(usage.name, suggestion) : undefined,
        });
        continue;
      }
      if (!suggestion && !dotted) {
        const { leaves, index } = leavesOf(cmd);
        const [near] = suggestNames(usage.name, index, 1);
        const matching = near === undefined ? [] : leaves.get(near) ?? [];
        if (matching.length === 1) suggestion = matching[0]!;
      }
      // An open namespace is Hydra's (`servers.main.port=1` names an instance); a dotted flag
      // (`--profiling.enable_x`, tyro/draccus/jsonargparse) addresses a field of a closed config
      // tree from its root, so an unknown first segment is as unknown as any other flag.
      if (dotted && !suggestion && !options.reportUnknownNamespaces && usage.syntax !== 'flag') continue;
      // A Hydra override adds a key to one global config that many parts of the app read: when
      // the code reads this key somewhere else and it is close to none of the command's own
      // parameters, it is not drift.
      if (!suggestion && usage.syntax === 'hydra-override' && model.isReadElsewhere(cmd, usage.name) && !options.reportKeysReadElsewhere) continue;
      const classes = configClassNames([cmd], model);
      // A dotted flag is named whole (`profiling.enable_memory_snapshot`): its root is only where it went wrong.
      const shown = dotted && usage.syntax === 'flag' && !suggestion ? usage.key : usage.name;
      report({
        messageId: suggestion ? 'unknownWithSuggestion' : 'unknown',
        data: { name: shown, key: usage.key, command: cmd.name, classes, ...(suggestion ? { suggestion } : {}) },
        location: usage.location,
        related: definedBy(model, cmd),
        suggestion: suggestion ? usage.raw.replace(usage.name, suggestion) : undefined,
      });
    }
    // `-g` where the code declares only `--g` (or `--gx` for `-gx`): the parser rejects it, so the
    // link stage kept it out of the usages. Judged like an unknown flag with a did-you-mean: the
    // parameter is known, only its dashes are wrong.
    for (const usage of model.misspeltFlags ?? []) {
      const cmd = model.commandByName(usage.command);
      const param = cmd?.paramsKnown ? findParam(cmd, usage.name) : undefined;
      // A command handing unknown flags on (click `ignore_unknown_options`) passes `-g` on too.
      if (!cmd || !param || cmd.passesUnknownFlags || isGlobalParam(model, cmd, usage.name, usage.syntax)) continue;
      const written = `${usage.prefix}${usage.name}`;
      const flag = flagSpelling(param, usage.name);
      const report = (d: ReportDescriptor): void => {
        // Options made at run time may declare `-g` too.
        if (cmd.unreadFlags) return;
        hold(cmd, usage.name, true, d);
      };
      report({
        messageId: 'misspeltFlag',
        data: { written, name: usage.name, key: usage.key, command: cmd.name, classes: configClassNames([cmd], model), flag },
        location: usage.location,
        related: [{ ...param.location, message: `\`${flag}\` is declared here` }, ...definedBy(model, cmd)],
        suggestion: usage.raw.replace(written, flag),
      });
    }
    // A word after a group that names none of its sub-commands ended the example's check (the
    // link stage). Reported when it is a near miss of a real sub-command (`opne` for `open`): a
    // word close to none may as well be a plugin's or a framework's built-in sub-command (`kedro
    // new`, yargs `completion`) as a removed one, and the run's notes list those instead. Not for a
    // group with a default sub-command, where a word is as often the default's argument or a
    // plugin's sub-command (`llm python`), nor for a word not shaped like a command name.
    for (const u of model.unknownSubcommands ?? []) {
      const group = model.commandByName(u.group);
      if (!group || u.groupHasDefault || !u.commandLike) continue;
      const depth = group.name.split(' ').length + 1;
      const subs = [...new Set(model.commands.flatMap((c) => [c.name, ...c.aliases])
        .filter((n) => n.startsWith(`${group.name} `) && n.split(' ').length === depth)
        .map((n) => n.split(' ')[depth - 1]!))].sort();
      if (subs.length === 0) continue;
      const [suggestion] = suggestNames(u.word, subs, 1);
      if (!suggestion) continue;
      emit({
        messageId: 'unknownSubcommandWithSuggestion',
        data: {
          name: u.word,
          command: group.name,
          subcommands: subs.length > 8 ? `${subs.slice(0, 8).map((n) => `\`${n}\``).join(', ')}, …` : subs.map((n) => `\`${n}\``).join(', '),
          suggestion,
        },
        location: u.location,
        related: group.location ? [{ ...group.location, message: `\`${group.name}\` is declared here` }] : [],
        suggestion,
      });
    }
    if (options.checkProse) checkProse();
    for (const [cmd, list] of judged) {
      const verdict = partlyRead(list, knownUsed.get(cmd)?.size ?? 0, options.summarizeAtUnknown, options.summarizeBelowKnownShare);
      for (const j of verdict.single) emit(j.descriptor);
      if (verdict.folded.length === 0) continue;
      const summary = summaryData(verdict.folded);
      emit({
        messageId: 'partlyRead',
        data: {
          command: cmd.name,
          key: JSON.stringify(cmd.name),
          classes: configClassNames([cmd], model),
          known: String(knownUsed.get(cmd)?.size ?? 0),
          ...summary.data,
        },
        location: summary.location,
        related: [...summary.related.map((r) => ({ ...r, message: `${r.message} is passed here` })), ...definedBy(model, cmd)],
        severity: 'warn',
      });
    }

    function checkProse(): void {
    // Prose cross-references other commands (`` can be passed to `--benchmark` `` on the page of
    // `gym list benchmarks`): a flag some command of the project defines is not reported.
    let anyCommand: Set<string> | undefined;
    const ownIndexes = new Map<CommandSpec, NameIndex>();
    for (const flag of model.proseFlags ?? []) {
      const cmd = model.commandByName(flag.command);
      if (!cmd?.paramsKnown || model.globalParams.has(flag.name)) continue;
      if (paramNameSet(cmd).has(flag.name)) {
        used(cmd, flag.name);
        continue;
      }
      anyCommand ??= new Set(model.commands.flatMap((c) => paramNames(c)));
      if (anyCommand.has(flag.name)) continue;
      let own = ownIndexes.get(cmd);
      if (!own) ownIndexes.set(cmd, (own = new NameIndex(paramNames(cmd))));
      const [suggestion] = suggestNames(flag.name, own, 1);
      // Tied only by being the project's one command, a flag close to none of its parameters is
      // more likely another tool's (`--no-verify`, `--volume`) than drift.
      if (flag.scope === 'project' && !suggestion) continue;
      // The suggested flag as the code declares it (`-gx`, `--g`), else `--name` as prose writes flags.
      const near = suggestion !== undefined ? findParam(cmd, suggestion) : undefined;
      const spelled = suggestion === undefined ? undefined : near?.optionStrings ? flagSpelling(near, suggestion) : `--${suggestion}`;
      const written = /^-*/.exec(flag.raw)![0] + flag.name;
      hold(cmd, flag.name, suggestion !== undefined, {
        messageId: suggestion ? 'unknownInProseWithSuggestion' : 'unknownInProse',
        data: { name: flag.name, command: cmd.name, classes: configClassNames([cmd], model), ...(suggestion ? { suggestion, flag: spelled! } : {}) },
        location: flag.location,
        related: definedBy(model, cmd),
        suggestion: suggestion ? (near?.optionStrings && flag.raw.startsWith(written) ? spelled! + flag.raw.slice(written.length) : flag.raw.replace(flag.name, suggestion)) : undefined,
      });
    }
    checkProseEnv();
    }

    // Issue #31: an environment variable named in prose (`` the `QUAMASH_QTIMPL` environment
    // variable ``) that the code never reads, judged as one an example sets (`envNameStatus`). A
    // name an env row of the same page documents is left to that row's finding.
    function checkProseEnv(): void {
      const envCmd = model.commandByName(ENVIRONMENT_COMMAND);
      if (!envCmd?.paramsKnown || !model.envNameStatus) return;
      const known = paramNameSet(envCmd);
      let index: NameIndex | undefined;
      for (const doc of model.docs) {
        if (doc.historical) continue;
        const mentions = (doc.proseCodes ?? []).filter((p) => p.envName !== undefined && !known.has(p.envName));
        if (mentions.length === 0) continue;
        const rows = new Set(model.sectionsFor(envCmd).filter((s) => s.file === doc.file).flatMap((s) => s.rows.flatMap((r) => r.names)));
        // Once per page and name: the first sentence that names it.
        const seen = new Set<string>();
        for (const mention of mentions) {
          const name = mention.envName!;
          if (rows.has(name) || seen.has(name) || model.isIgnored(name)) continue;
          seen.add(name);
          const status = model.envNameStatus(name);
          if (status === 'excluded') continue;
          index ??= new NameIndex(paramNames(envCmd));
          const suggestion = suggestNames(name, index, 1)[0] ?? abbreviatedName(name, paramNames(envCmd));
          if (status === 'foreign' && !suggestion) continue;
          hold(envCmd, name, suggestion !== undefined, {
            messageId: suggestion ? 'unknownEnvInProseWithSuggestion' : 'unknownEnvInProse',
            data: { name, command: envCmd.name, ...(suggestion ? { suggestion } : {}) },
            location: mention.location,
            related: definedBy(model, envCmd),
            suggestion: suggestion ? mention.code.replace(name, suggestion) : undefined,
          });
        }
      }
    }
  },
};

export default rule;
