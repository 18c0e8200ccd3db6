/**
 * Parses a docopt usage text (the program's help message, which docopt reads as the declaration
 * of its command line) into commands with their options and positional arguments, the way
 * docopt 0.6.2 (and docopt-ng) reads it: https://github.com/docopt/docopt/blob/master/docopt.py
 * (`parse_section`, `parse_defaults`, `Option.parse`, `formal_usage`, `parse_pattern`).
 * Pure text in, plain data out: every element carries its offset in the text so that the caller
 * can place it in the source file.
 */

/** The most sub-command paths one usage line's leading `( a | b )` groups may expand to (fresh sweep, #33). */
const MAX_COMMAND_PATHS = 1_000;

/**
 * The most distinct options one docopt program is read with (its `Options:` sections' options,
 * then the other options its usage patterns name). Past it the others are not read and
 * {@link DocoptProgram.optionsCut} says how many (s26 sweep 2 D2: 32,000 options). Real programs
 * have a few dozen.
 */
export const MAX_DOCOPT_OPTIONS = 2_000;

/**
 * Most options `[options]` adds to the commands of one program, all together: each command whose
 * pattern holds `[options]` gets every `Options:` entry no pattern names, so 1,000 commands of
 * 2,000 options made 2,000,000 (18.9 s, 1.5 GB). A command that would pass it gets its named
 * options only and {@link DocoptCommand.restOmitted}; real programs add a few dozen options to a
 * few dozen commands.
 */
export const MAX_DOCOPT_SHORTCUT_OPTIONS = 50_000;

/** One option as docopt knows it: from an `Options:` section line or from a usage pattern. */
export interface DocoptOption {
  /** `-s` as written, when the option has a short spelling. */
  short?: string;
  /** `--speed` as written, when it has a long spelling. */
  long?: string;
  /** 1 when the option takes a value (`--speed=<kn>`, `-o FILE`), else 0 (a switch). */
  argcount: 0 | 1;
  /** The `[default: x]` of an option that takes a value, as written. */
  default?: string;
  /** The description after the two blanks, lines joined. */
  description?: string;
  /** Offset of the option's first spelling in the text. */
  offset: number;
  /** Length of that spelling. */
  length: number;
}

/** One positional argument (`<name>` or `NAME`) of a usage pattern. */
export interface DocoptPositional {
  /** The name without angle brackets (`name` for `<name>`, `FILE` for `FILE`). */
  name: string;
  /** Outside every `[…]`. */
  required: boolean;
  /** Followed by `...`: takes every remaining word. */
  variadic: boolean;
  offset: number;
  length: number;
}

/** The options and positionals of the usage patterns that start with the same command words. */
export interface DocoptCommand {
  /** Command words after the program name (`['ship', 'new']`); `[]` for the program itself. */
  path: string[];
  options: DocoptOption[];
  positionals: DocoptPositional[];
  /** Offset of the first pattern's program name. */
  offset: number;
  /** True when its `[options]` was not expanded ({@link MAX_DOCOPT_SHORTCUT_OPTIONS}): options it accepts are unknown. */
  restOmitted?: boolean;
}

/** What {@link parseDocopt} read. */
export interface DocoptProgram {
  /** The program name the usage patterns start with (`naval_fate.py`). */
  name: string;
  /** One per distinct leading command path, the program itself (`path: []`) first. */
  commands: DocoptCommand[];
  /** Every option of the `Options:` sections, in order (the first {@link MAX_DOCOPT_OPTIONS}). */
  sectionOptions: DocoptOption[];
  /** The options not read past {@link MAX_DOCOPT_OPTIONS} (absent when every option was read). */
  optionsCut?: number;
}

/** Options deduplicated as docopt compares them: by long spelling, or else by short spelling. */
class OptionSet {
  readonly list: DocoptOption[] = [];
  private readonly longs = new Set<string>();
  private readonly shorts = new Set<string>();
  has(o: DocoptOption): boolean {
    return (o.long !== undefined && this.longs.has(o.long)) || (o.short !== undefined && this.shorts.has(o.short));
  }
  /** Adds `o` unless an option of the same long or short spelling is in the set already. */
  add(o: DocoptOption): void {
    if (this.has(o)) return;
    this.list.push(o);
    if (o.long !== undefined) this.longs.add(o.long);
    if (o.short !== undefined) this.shorts.add(o.short);
  }
}

/** docopt's `parse_section`: a line naming the section and the indented lines after it. */
function sections(name: string, doc: string): Array<{ text: string; offset: number }> {
  const re = new RegExp(`^([^\\n]*${name}[^\\n]*\\n?(?:[ \\t].*?(?:\\n|$))*)`, 'gim');
  const out: Array<{ text: string; offset: number }> = [];
  for (const m of doc.matchAll(re)) {
    const raw = m[1]!;
    if (raw === '') continue;
    const lead = raw.length - raw.trimStart().length;
    out.push({ text: raw.trim(), offset: m.index + lead });
  }
  return out;
}

/** docopt's `Option.parse` on one option block (its first line and continuation lines). */
function parseOption(block: string, offset: number): DocoptOption | undefined {
  const trimmed = block.trim();
  const start = offset + (block.length - block.trimStart().length);
  const gap = trimmed.indexOf('  ');
  const spec = gap < 0 ? trimmed : trimmed.slice(0, gap);
  const description = gap < 0 ? '' : trimmed.slice(gap + 2);
  let short: string | undefined;
  let long: string | undefined;
  let argcount: 0 | 1 = 0;
  let first: { offset: number; length: number } | undefined;
  for (const m of spec.replace(/[,=]/g, ' ').matchAll(/\S+/g)) {
    const s = m[0];
    if (s.startsWith('--')) long = s;
    else if (s.startsWith('-')) short = s;
    else argcount = 1;
    if (s.startsWith('-')) first ??= { offset: start + m.index, length: s.length };
  }
  if (!first || (short === undefined && long === undefined)) return undefined;
  const option: DocoptOption = { argcount, offset: first.offset, length: first.length };
  if (short !== undefined) option.short = short;
  if (long !== undefined) option.long = long;
  const text = description.replace(/\s+/g, ' ').trim();
  if (text !== '') option.description = text;
  if (argcount === 1) {
    const value = docoptDefault(description);
    if (value !== undefined) option.default = value;
  }
  return option;
}

const DEFAULT_MARK = /\[default: /gi;
const LINE_END = /[\n\r\u2028\u2029]/g;

/**
 * What docopt's `\[default: (.*)\]` (case-insensitive) captures: from the first `[default: `
 * with a `]` later on its line, up to the last `]` of that line. Found by index: the pattern
 * scanned to the line's end from every `[default: ` of a line without `]`, quadratic (s27 recheck
 * list). A line ends where `.` stops: `\n`, `\r`, U+2028, U+2029.
 */
export function docoptDefault(description: string): string | undefined {
  DEFAULT_MARK.lastIndex = 0;
  for (let m = DEFAULT_MARK.exec(description); m !== null; m = DEFAULT_MARK.exec(description)) {
    const from = m.index + m[0].length;
    LINE_END.lastIndex = from;
    const end = LINE_END.exec(description)?.index ?? description.length;
    const close = description.lastIndexOf(']', end - 1);
    if (close >= from) return description.slice(from, close);
    // No `]` on the rest of this line: no later `[default: ` of the line has one either.
    DEFAULT_MARK.lastIndex = end;
  }
  return undefined;
}

/** docopt's `parse_defaults`: the options of every section whose first line says `options:`. */
function sectionOptions(doc: string): DocoptOption[] {
  const out: DocoptOption[] = [];
  for (const section of sections('options:', doc)) {
    const colon = section.text.indexOf(':');
    const body = section.text.slice(colon + 1);
    const bodyOffset = section.offset + colon + 1;
    // Each option starts on a line whose first non-blank character is `-`.
    const starts: number[] = [];
    for (const m of `\n${body}`.matchAll(/\n[ \t]*-\S/g)) starts.push(m.index); // index in `\n`+body = offset in body of the `\n`'s successor − 1
    for (let i = 0; i < starts.length; i++) {
      const from = starts[i]!; // offset in body where the line starts
      const to = i + 1 < starts.length ? starts[i + 1]! - 1 : body.length;
      const option = parseOption(body.slice(from, to), bodyOffset + from);
      if (option) out.push(option);
    }
  }
  return out;
}

interface Token {
  text: string;
  offset: number;
}

/** A character that ends a word of a usage pattern (`<` and `.` are handled apart). */
const WORD_END = /[\s[\]()|]/;

/**
 * Splits a usage pattern as docopt does (`[`, `]`, `(`, `)`, `|`, `...` stand alone; `<a b>` is one
 * token). It reads what `/\.\.\.|[[\]()|]|(?:[^\s[\]()|<.]|\.(?!\.\.)|<[^>]*>)+/g` matches, in one
 * pass: that regular expression rescanned the rest of the text from every `<` with no `>` after it
 * (150,000 of them took 19 s, s26 sweep 2 D1). A `<` with no `>` after it belongs to no token.
 */
function tokens(text: string, offset: number): Token[] {
  const out: Token[] = [];
  // The first `>` at or after the scan position (-1: none is left), searched again only once passed.
  let gt = -2;
  const nextGt = (from: number): number => (gt === -1 || gt >= from ? gt : (gt = text.indexOf('>', from)));
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '.' && text.startsWith('...', i)) {
      out.push({ text: '...', offset: offset + i });
      i += 3;
      continue;
    }
    if (c === '[' || c === ']' || c === '(' || c === ')' || c === '|') {
      out.push({ text: c, offset: offset + i });
      i++;
      continue;
    }
    let j = i;
    while (j < text.length) {
      const d = text[j]!;
      if (d === '<') {
        const close = nextGt(j + 1);
        if (close < 0) break;
        j = close + 1;
      } else if (d === '.') {
        if (text.startsWith('..', j + 1)) break;
        j++;
      } else if (WORD_END.test(d)) break;
      else j++;
    }
    if (j > i) out.push({ text: text.slice(i, j), offset: offset + i });
    i = j > i ? j : i + 1;
  }
  return out;
}

const isPositional = (t: string): boolean => (t.startsWith('<') && t.endsWith('>')) || (/[A-Z]/.test(t) && t === t.toUpperCase() && !t.startsWith('-'));
const isWord = (t: string): boolean => !t.startsWith('-') && !isPositional(t) && !/^[[\]()|]$/.test(t) && t !== '...' && t !== 'options';

/**
 * Reads a docopt usage text. Each usage pattern (a line of the `Usage:` section starting with the
 * program name) belongs to the command named by its leading command words (`ship new` in
 * `naval_fate.py ship new <name>...`; a leading `(add | rm)` gives both); its options (also inside
 * `[…]`, with `--x=<v>`, `-abc` clusters and `-o FILE` read against the `Options:` sections) and
 * its positionals are that command's. `[options]` stands for every option of the `Options:`
 * sections that no usage pattern names (docopt checks this against the whole usage section). The program itself (`path: []`) is always present. Commands
 * after a positional (`ship <name> move`) are not sub-commands here: their options go to the
 * leading words' command.
 *
 * @returns `undefined` when the text has no `usage:` section or more than one (docopt raises
 *   `DocoptLanguageError` then).
 */
export function parseDocopt(doc: string): DocoptProgram | undefined {
  const usages = sections('usage:', doc);
  if (usages.length !== 1) return undefined;
  const usage = usages[0]!;
  const colon = usage.text.indexOf(':');
  const all = tokens(usage.text.slice(colon + 1), usage.offset + colon + 1);
  const program = all[0];
  if (!program) return undefined;
  const declared = sectionOptions(doc);
  const known = declared.length > MAX_DOCOPT_OPTIONS ? declared.slice(0, MAX_DOCOPT_OPTIONS) : declared;
  // The options not read, one key each (their long spelling, else their short one).
  const dropped = new Set<string>();
  const droppedKey = new Map<string, string>();
  for (const o of declared.slice(known.length)) {
    const key = o.long ?? o.short!;
    dropped.add(key);
    for (const s of [o.long, o.short]) if (s !== undefined && !droppedKey.has(s)) droppedKey.set(s, key);
  }
  // Each spelling to the first section option that has it (docopt's `[o for o in options if …]`).
  const bySpelling = new Map<string, DocoptOption>();
  for (const o of known) {
    if (o.long !== undefined && !bySpelling.has(o.long)) bySpelling.set(o.long, o);
    if (o.short !== undefined && !bySpelling.has(o.short)) bySpelling.set(o.short, o);
  }
  const byName = (s: string): DocoptOption | undefined => bySpelling.get(s);
  // Spellings of the options the usage names that no section declares, counted against the cap.
  const undeclared = new Set<string>();
  const admits = (spelling: string): boolean => {
    if (undeclared.has(spelling)) return true;
    if (known.length + undeclared.size >= MAX_DOCOPT_OPTIONS) {
      dropped.add(droppedKey.get(spelling) ?? spelling);
      return false;
    }
    undeclared.add(spelling);
    return true;
  };
  const patterns: Token[][] = [];
  for (const t of all) {
    if (t.text === program.text) patterns.push([]);
    else patterns.at(-1)?.push(t);
  }
  const commands = new Map<string, DocoptCommand>();
  const commandFor = (path: string[]): DocoptCommand => {
    const key = path.join(' ');
    let command = commands.get(key);
    if (!command) commands.set(key, (command = { path, options: [], positionals: [], offset: program.offset }));
    return command;
  };
  commandFor([]);
  const read: Array<{ paths: string[][]; options: DocoptOption[]; positionals: DocoptPositional[]; shortcut: boolean }> = [];
  for (const pattern of patterns) {
    // Leading command words; a leading `( a | b )` of words alone gives one path per word.
    const paths: string[][] = [[]];
    let i = 0;
    for (;;) {
      const t = pattern[i];
      if (t && isWord(t.text)) {
        for (const p of paths) p.push(t.text);
        i++;
        continue;
      }
      if (t?.text === '(') {
        let close = i + 1;
        while (close < pattern.length && pattern[close]!.text !== ')') close++;
        if (close === pattern.length) close = -1;
        const inner = close > 0 ? pattern.slice(i + 1, close) : [];
        const words = inner.filter((x) => x.text !== '|');
        const alternating = inner.length === words.length * 2 - 1 && inner.every((x, k) => (k % 2 === 1 ? x.text === '|' : isWord(x.text)));
        // Alternation groups multiply: past MAX_COMMAND_PATHS sub-command paths per usage line
        // (4 groups of 30 words are 810,000) the rest of the line is not read as command words.
        if (words.length > 0 && alternating && paths.length * words.length <= MAX_COMMAND_PATHS) {
          const expanded = paths.flatMap((p) => words.map((w) => [...p, w.text]));
          paths.length = 0;
          for (const e of expanded) paths.push(e);
          i = close + 1;
          continue;
        }
      }
      break;
    }
    const options = new OptionSet();
    const positionals: DocoptPositional[] = [];
    const positionalNames = new Set<string>();
    let shortcut = false;
    const depth: string[] = [];
    let optional = 0; // the `[` in `depth`
    const addOption = (option: DocoptOption): void => options.add(option);
    for (let k = i; k < pattern.length; k++) {
      const t = pattern[k]!;
      if (t.text === '[' || t.text === '(') {
        depth.push(t.text);
        if (t.text === '[') optional++;
      } else if (t.text === ']' || t.text === ')') {
        if (depth.pop() === '[') optional--;
      }
      else if (t.text === 'options') shortcut = true;
      else if (t.text.startsWith('--') && t.text.length > 2) {
        const eq = t.text.indexOf('=');
        const long = eq < 0 ? t.text : t.text.slice(0, eq);
        const found = byName(long);
        const argcount: 0 | 1 = found ? found.argcount : eq < 0 ? 0 : 1;
        if (found) addOption(found);
        else if (admits(long)) addOption({ long, argcount, offset: t.offset, length: long.length });
        if (eq < 0 && argcount === 1 && pattern[k + 1] && isPositional(pattern[k + 1]!.text)) k++; // its value
      } else if (t.text.startsWith('-') && t.text.length > 1 && t.text !== '--') {
        let left = t.text.slice(1);
        let at = t.offset + 1;
        while (left !== '') {
          const short = `-${left[0]!}`;
          left = left.slice(1);
          const found = byName(short);
          if (found) addOption(found);
          else if (admits(short)) addOption({ short, argcount: 0, offset: at - 1, length: 2 });
          at++;
          if (found?.argcount === 1) {
            if (left === '' && pattern[k + 1] && isPositional(pattern[k + 1]!.text)) k++;
            left = '';
          }
        }
      } else if (isPositional(t.text)) {
        const name = t.text.startsWith('<') ? t.text.slice(1, -1) : t.text;
        if (!positionalNames.has(name)) {
          positionalNames.add(name);
          positionals.push({ name, required: optional === 0, variadic: pattern[k + 1]?.text === '...', offset: t.offset, length: t.text.length });
        }
      }
    }
    read.push({ paths, options: options.list, positionals, shortcut });
  }
  // `[options]` stands for the section's options that no usage pattern names (docopt's
  // `set(options) - pattern_options`, over the whole usage section).
  const namedLongs = new Set<string>();
  const namedShorts = new Set<string>();
  for (const r of read) {
    for (const o of r.options) {
      if (o.long !== undefined) namedLongs.add(o.long);
      if (o.short !== undefined) namedShorts.add(o.short);
    }
  }
  const rest = known.filter((o) => !((o.long !== undefined && namedLongs.has(o.long)) || (o.short !== undefined && namedShorts.has(o.short))));
  // Each command's options and positional names, indexed as they are merged.
  const merged = new Map<DocoptCommand, { options: OptionSet; positionals: Set<string>; rest?: boolean }>();
  let shortcutBudget = MAX_DOCOPT_SHORTCUT_OPTIONS;
  for (const { paths, options, positionals, shortcut } of read) {
    for (const path of paths) {
      const command = commandFor(path);
      let index = merged.get(command);
      if (!index) merged.set(command, (index = { options: new OptionSet(), positionals: new Set() }));
      let expand = shortcut && !index.rest;
      if (expand && rest.length > shortcutBudget) {
        expand = false;
        command.restOmitted = true;
      } else if (expand) {
        shortcutBudget -= rest.length;
        index.rest = true;
      }
      for (const o of expand ? [...options, ...rest] : options) {
        if (index.options.has(o)) continue;
        index.options.add(o);
        command.options.push(o);
      }
      for (const p of positionals) {
        if (index.positionals.has(p.name)) continue;
        index.positionals.add(p.name);
        command.positionals.push(p);
      }
    }
  }
  const optionsCut = dropped.size;
  return { name: program.text, commands: [...commands.values()], sectionOptions: known, ...(optionsCut > 0 ? { optionsCut } : {}) };
}
