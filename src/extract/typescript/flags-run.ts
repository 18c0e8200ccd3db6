/** The flag extraction pipeline: parse every file once with ts-morph (in memory, no checker), evaluate yargs/commander definitions, emit FlagCommands. */
import { ts } from 'ts-morph';
import { parseSourceFile, type ParsedFiles } from './syntax.js';
import type { InputDiagnostic, ParamSpec } from '../../model/types.js';
import type { FlagCommand, FlagExtraction } from './types.js';
import { finishCacProgram } from './flags-cac.js';
import { yargsEnvName } from './flags-yargs.js';
import { Evaluator } from './flags-eval.js';
import { camelCase, type CommandNode } from './flags-node.js';
import { cittyPrograms } from './flags-citty.js';
import { clipanionPrograms } from './flags-clipanion.js';
import { oclifPrograms, type PackageJsonText } from './flags-oclif.js';
import { camelTwin, parserPrograms } from './flags-parsers.js';
import { Resolver } from './resolve.js';
import { scanModule, type ModuleInfo } from './scan.js';

/** Files worth walking: only these can start a yargs/commander chain or add to one held in a variable. */
const MENTIONS_CLI = /\byargs\b|\bcommander\b|\bparseArgs\b|['"](?:cac|sade|meow)['"]|\.(?:option|options|positional|command|addCommand|addOption|requiredOption|argument|addArgument)\s*\(/;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first syntax error of a file as a `parse-error` warning (as `extractTypeScript` reports it). */
function parseDiagnostic(file: string, sf: ts.SourceFile): InputDiagnostic | undefined {
  // `parseDiagnostics` is the parser's own list (no type checking); internal but stable.
  const first = (sf as unknown as { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics?.[0];
  if (!first) return undefined;
  const { line, character } = sf.getLineAndCharacterOfPosition(first.start);
  const what = ts.flattenDiagnosticMessageText(first.messageText, ' ');
  return {
    ruleId: 'parse-error',
    severity: 'warn',
    message: `${file}:${line + 1}:${character + 1}: TypeScript syntax error (TS${first.code}: ${what}); flag definitions in the rest of the file are read where the parser recovers`,
    location: { file, line: line + 1, column: character + 1 },
  };
}

/** See {@link extractTypeScriptFlags} in `flags.ts`. */
export function runFlagExtraction(sources: { file: string; text: string }[], workspaces: ReadonlyMap<string, string> = new Map(), packageJsons: readonly PackageJsonText[] = [], parsed?: ParsedFiles, oclifTotals?: ReadonlyMap<string, number>): FlagExtraction {
  const diagnostics: InputDiagnostic[] = [];
  const modules = new Map<string, ModuleInfo>();
  const bySourceFile = new Map<ts.SourceFile, ModuleInfo>();
  for (const source of sources) {
    if (modules.has(source.file)) continue; // the first copy of a path wins
    try {
      const sf = parseSourceFile(source.file, source.text, parsed);
      const diagnostic = parseDiagnostic(source.file, sf);
      if (diagnostic) diagnostics.push(diagnostic);
      const module = scanModule(source.file, sf);
      modules.set(source.file, module);
      bySourceFile.set(sf, module);
    } catch (error) {
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'warn',
        message: `${source.file}: the TypeScript parser failed (${error instanceof RangeError ? 'nested too deeply for it: ' : ''}${error instanceof Error ? error.message : String(error)}); the file is not read`,
        location: { file: source.file, line: 1, column: 1 },
      });
    }
  }

  const evaluator = new Evaluator(new Resolver(modules), bySourceFile, workspaces);
  for (const module of modules.values()) if (MENTIONS_CLI.test(module.sf.text)) evaluator.walk(module.sf);

  const roots = evaluator.nodes.filter(isProgram);
  for (const root of roots) if (root.framework === 'cac') finishCacProgram(evaluator, root);
  for (const module of modules.values()) roots.push(...parserPrograms(evaluator, module));
  roots.push(...oclifPrograms(evaluator, modules, packageJsons, diagnostics, oclifTotals));
  for (const module of modules.values()) roots.push(...clipanionPrograms(evaluator, module), ...cittyPrograms(evaluator, module));
  roots.sort((a, b) => compare(a.location.file, b.location.file) || a.location.line - b.location.line || a.location.column - b.location.column);
  const commands: FlagCommand[] = [];
  for (const root of roots) emit(root, [], root.file, commands, new Set(), diagnostics);
  diagnostics.push(...evaluator.diagnostics);
  diagnostics.sort((a, b) => compare(a.location.file, b.location.file) || a.location.line - b.location.line);
  return { commands, diagnostics };
}

/**
 * An unattached node that is a program: a yargs factory call or an unnamed `new Command()`; a
 * `.parse()`d command; the yargs singleton or commander global program once it defines something.
 * A named `new Command('x')` never attached nor parsed is left out: its path is unknown.
 */
function isProgram(node: CommandNode): boolean {
  if (node.parent) return false;
  if (node.program || node.parsed) return true;
  return node.singleton && (node.params.length > 0 || node.children.length > 0);
}

/**
 * How many sub-command words deep a command tree is read (`tool a b c` is 3 deep). Real trees are
 * a few levels; 2,000 nested `.command()` calls would make 2,000 commands whose names hold up to
 * 2,000 words each (quadratic text, and every later step per command per word).
 */
export const MAX_COMMAND_DEPTH = 32;

function emit(node: CommandNode, path: string[], file: string, out: FlagCommand[], seen: Set<CommandNode>, diagnostics: InputDiagnostic[], inheritedEnvPrefix?: string | false): void {
  if (seen.has(node)) return;
  seen.add(node);
  if (path.length > MAX_COMMAND_DEPTH) {
    const at = node.location;
    diagnostics.push({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${at.file}:${at.line}:${at.column}: sub-commands nested more than ${MAX_COMMAND_DEPTH} deep (\`${path.slice(0, 3).join(' ')} …\`): the deeper ones are not read`,
      location: { file: at.file, line: at.line, column: at.column },
    });
    return;
  }
  const owner = path.join(' ');
  // yargs `.env(prefix)` on this command or an ancestor: every option is also read from the environment.
  const envPrefix = node.envPrefix ?? inheritedEnvPrefix;
  const command: FlagCommand = {
    path,
    file,
    params: node.params.map((p) => finishParam(p, owner, node.framework, typeof envPrefix === 'string' ? envPrefix : undefined)),
    location: node.location,
    framework: node.framework,
  };
  if (path.length === 0 && node.name !== undefined) command.programName = node.name;
  if (path.length > 0 && node.aliases.length > 0) command.aliases = [...node.aliases];
  if (node.pathAliases && node.pathAliases.length > 0) command.pathAliases = node.pathAliases.map((p) => [...p]);
  if (node.description !== undefined) command.description = node.description;
  if (node.hidden) command.hidden = true;
  if (node.deprecated) command.deprecated = true;
  if (node.passesUnknownFlags) command.passesUnknownFlags = true;
  if (node.unreadFlags) command.unreadFlags = node.unreadFlags;
  if (node.dynamicSubcommands) command.dynamicSubcommands = true;
  if (node.dynamicSubcommands && node.dynamicSubcommandsBy !== undefined) command.dynamicSubcommandsBy = node.dynamicSubcommandsBy;
  if (node.defaultCommand !== undefined && node.children.some((c) => c.name === node.defaultCommand)) command.defaultSubcommand = node.defaultCommand;
  out.push(command);
  for (const child of node.children) if (child.name !== undefined) emit(child, [...path, child.name], file, out, seen, diagnostics, envPrefix);
}

/** A copy of the spec in the model's key order, with its owner; a yargs one-letter key takes its long alias as name. */
function finishParam(spec: ParamSpec, owner: string, framework: CommandNode['framework'], envPrefix?: string): ParamSpec {
  let name = spec.name;
  let aliases = [...spec.aliases];
  let dest = spec.dest;
  if (framework === 'yargs' && !spec.positional && name.length === 1) {
    const long = aliases.find((a) => a.length > 1);
    if (long !== undefined) {
      aliases = [name, ...aliases.filter((a) => a !== long)];
      name = long;
      dest = camelCase(long);
    }
  }
  // yargs' camel-case expansion accepts `--seed-count` and `--seedCount` alike, and so does citty;
  // cac camel-cases every option name it parses, and meow passes each flag's camel-case key as an alias.
  if ((framework === 'yargs' || framework === 'citty' || framework === 'cac' || framework === 'meow') && !spec.positional) {
    const twin = camelTwin(name);
    if (twin !== undefined && twin !== name && !aliases.includes(twin)) aliases = [...aliases, twin];
  }
  // Built in the model's key order, so serialised output reads like the type.
  const out = { name, aliases } as ParamSpec;
  if (spec.type !== undefined) out.type = spec.type;
  if (spec.default !== undefined) out.default = { ...spec.default };
  out.required = spec.required;
  if (spec.description !== undefined) out.description = spec.description;
  out.deprecated = spec.deprecated;
  out.hidden = spec.hidden;
  out.origin = 'cli-flag';
  out.owner = owner;
  out.location = { ...spec.location };
  if (dest !== undefined && !spec.positional) out.dest = dest;
  if (spec.choices) out.choices = [...spec.choices];
  if (spec.negatable) out.negatable = true;
  if (spec.positional) out.positional = true;
  if (spec.optionStrings) out.optionStrings = [...spec.optionStrings];
  if (spec.counted) out.counted = true;
  if (spec.variadic) out.variadic = true;
  // commander `.env('X')`, oclif `env: 'X'`; yargs `.env(prefix)` gives every option one (positionals are options too in yargs-parser, but no one sets them so).
  if (spec.envVars) out.envVars = [...spec.envVars];
  else if (envPrefix !== undefined && framework === 'yargs' && !spec.positional) out.envVars = [yargsEnvName(envPrefix, name)];
  return out;
}
