/**
 * The properties of type aliases that docdrift's syntactic reader (src/extract/typescript/analysis.ts)
 * cannot expand, read with TypeScript's own type checker.
 *
 * The reader follows interfaces, classes, type literals, intersections and the key-preserving
 * utilities (`Partial`, `Pick`, …) by their syntax. A config type may also be written as a
 * generic alias applied to a type (`type Config = Wrap<Base>` with `type Wrap<T> = T & {…}`,
 * `Id<Base>`), a mapped type (`{ [K in keyof Base]?: Base[K] }`, key remapping with `as`),
 * `Record<'a' | 'b', T>`, `typeof defaults`, a conditional type or an indexed access type
 * (`All['cfg']`) (#33 fresh sweep s19 item 5: a false `reference-param-unknown`, or exit 2 "no
 * config class or type named … was found" for a type that exists). Rather than one more syntactic
 * case per form, such an alias is given to the checker: an in-memory program of the alias's file
 * and the project files it imports (relative imports only; packages are not read, so a type from
 * a package is `any` and gives no properties), with TypeScript's standard library declarations
 * (bundled with ts-morph). Of those files the checker reads only the top-level statements the
 * alias may depend on, the rest blanked in place (checker-texts.ts): docdrift's own
 * `ReturnType<typeof readEntryPoints>` alias made a program of 169 files (2.9 s, 280 MB in the
 * checker's thread), now 3 (#33 sweep s46 H5). Nothing is executed; the checker only evaluates types.
 *
 * Cost: the first alias loads and binds the standard library (about 0.75 s on a 2-core machine);
 * each further alias costs milliseconds to a few hundred (its program is parsed and bound anew). At most {@link MAX_CHECKED_ALIASES} aliases per run are
 * read so; past that, or when the checker fails, an alias is read as before.
 *
 * Conditional types nested in one another's `true` branches cost the checker time exponential in
 * the depth (TypeScript's `getConditionalFlowTypeOfType` and the intersections it builds, once per
 * enclosing level: `string extends string ? string extends string ? … : never : never` 14 deep
 * took 3 s, 18 deep 75 s; #33 sweep s23 D2). The checker's copy of each file has every conditional
 * type past {@link MAX_CONDITIONAL_NESTING} such levels replaced by `any` ({@link capConditionalNesting}),
 * and one `parse-error` warning per file says so ({@link AliasChecker.notes}).
 *
 * Other types make the checker build unions of millions of members or recurse until it runs out
 * of memory (the permutations of 9 string literals: 107 s and 4.4 GB, then V8 aborted the process;
 * #33 sweep s24 D6/D7), and no scan of the text can tell them all. So the checker runs in a worker
 * thread of its own (checker-worker.ts) with a V8 heap limit ({@link CHECKER_HEAP_MB}), and the
 * thread that reads the aliases waits for each answer synchronously (`Atomics.wait`, then
 * `receiveMessageOnPort`, as the document parser does), under a budget of CPU time for the whole
 * run ({@link CHECKER_BUDGET_MS}, its start-up included) and of properties read
 * ({@link MAX_RUN_CHECKED_PROPERTIES}). An alias that runs past the budget or the
 * heap limit ends the worker: it and every later alias are read by their syntax, and one
 * `parse-error` warning at that alias says so. Where no compiled worker exists (running from
 * TypeScript source, as vitest does) the checker runs in the calling thread, and the budget is
 * checked only between aliases.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { ts } from 'ts-morph';
import type { InputDiagnostic } from '../../model/types.js';
import { threadCpuMs, WALL_FACTOR } from '../../shared/thread-cpu.js';
import { checkerProject, MAX_CHECKED_PROPERTIES, readAliasProperties, type WireAnswer } from './checker-core.js';
import { checkerStatements, keptText, mergeStatements } from './checker-texts.js';
import { Resolver } from './resolve.js';
import type { ModuleInfo } from './scan.js';

/** Most aliases one run reads with the checker. */
export const MAX_CHECKED_ALIASES = 200;

/** Most conditional types the checker reads nested in one another's `true` branches; deeper ones are `any` to it. */
export const MAX_CONDITIONAL_NESTING = 8;

/** A file's text as the type checker is given it (see {@link capConditionalNesting}). */
export interface CappedText {
  /** The text, of the same length and lines as the original. */
  text: string;
  /** How many conditional types were replaced by `any` (outermost ones only). */
  cuts: number;
  /** 1-based line and column of the first one replaced, when any. */
  first?: { line: number; column: number };
}

/**
 * The text of `sf` with every conditional type that sits inside the `true` branches of `max`
 * enclosing conditional types replaced by `any`, padded with spaces (line breaks kept) so that
 * every other position is unchanged. One pass over the tree with an explicit stack: no recursion,
 * so any nesting depth is safe. A file without the word `extends` is returned as it is.
 */
export function capConditionalNesting(sf: ts.SourceFile, max: number = MAX_CONDITIONAL_NESTING): CappedText {
  const text = sf.text;
  if (!text.includes('extends')) return { text, cuts: 0 };
  const spans: Array<[number, number]> = [];
  const stack: Array<[ts.Node, number]> = [[sf, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [ts.Node, number];
    if (ts.isConditionalTypeNode(node)) {
      if (depth >= max) {
        spans.push([node.getStart(sf), node.end]);
        continue;
      }
      stack.push([node.checkType, depth], [node.extendsType, depth], [node.trueType, depth + 1], [node.falseType, depth]);
      continue;
    }
    ts.forEachChild(node, (child) => {
      stack.push([child, depth]);
    });
  }
  if (spans.length === 0) return { text, cuts: 0 };
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + 'any' + text.slice(start + 3, end).replace(/[^\r\n]/g, ' ');
    at = end;
  }
  out += text.slice(at);
  const { line, character } = sf.getLineAndCharacterOfPosition((spans[0] as [number, number])[0]);
  return { text: out, cuts: spans.length, first: { line: line + 1, column: character + 1 } };
}

/** CPU time, in milliseconds, the type checker may cost one run: its start-up (~0.5 s), TypeScript's standard library (~0.75 s) and every alias it reads (16 aliases of vite's sources: 1.5 s in all). */
export const CHECKER_BUDGET_MS = 4000;

/**
 * The checker worker's V8 old-space limit in MB. An alias whose type names a function's return
 * type (`ReturnType<typeof f>`) has the checker bind every file the function's module imports:
 * docdrift's own `EntryPoint` alias (src/engine/lint.ts, about 300 files) needs more than 128.
 */
export const CHECKER_HEAP_MB = 192;

/**
 * Most properties the checker reads in one run, over all aliases (each alias's properties cost
 * it types and memory): past it, later aliases are read by their syntax. 300 mapped types of
 * 2,000 keys each grew the checker's heap by about 1 MB per alias.
 */
export const MAX_RUN_CHECKED_PROPERTIES = 20_000;

/** A request to the checker worker: the properties of alias `name` in `file`. */
export interface CheckerRequest {
  id: number;
  file: string;
  name: string;
  /** Texts to give the checker before this alias, by project-relative path: the files whose statements it may depend on grew (checker-texts.ts); other files it reaches are read whole. */
  texts: Array<[string, string]>;
}

/** The checker worker's answer to request `id`: the checker's answer, or the message of what it threw. */
export type CheckerResponse = { id: number; answer: WireAnswer } | { id: number; error: string };

/** `true` when this module is the compiled JavaScript, next to which checker-worker.js exists. */
const COMPILED = import.meta.url.endsWith('.js');

/** One property of a checked alias's type. */
export interface CheckedProperty {
  /** The property's name as TypeScript gives it (after key remapping). */
  name: string;
  /** `?` on the property (or `Partial`, a `?` mapped type): not required. */
  optional: boolean;
  /** Its type as the checker prints it (`number`, `string | undefined`), relative to the alias. */
  type: string;
  /** True when its type is an object type (not a primitive, literal, array, tuple or function): sub-keys are open. */
  objectType: boolean;
  /** Where the property is declared, when in a project file: its name node in that file's syntax tree (the extractors' own parse). */
  declaration?: { file: string; sf: ts.SourceFile; node: ts.Node };
}

/** Where an alias is declared, 1-based. */
export interface AliasPosition {
  line: number;
  column: number;
}

/** The live checker worker. */
interface Live {
  worker: Worker;
  port: MessagePort;
  /** [0] last answered request id, [1] the worker's thread id, [2] 1 loaded / -1 failed. */
  flag: Int32Array;
  /** When it was started (ms since the epoch): the wall-clock deadline counts from here. */
  started: number;
}

/** Why the checker stopped reading aliases, and at which one. */
interface Stop {
  reason: 'time' | 'memory' | 'properties' | 'aliases';
  file: string;
  name: string;
  at: AliasPosition;
  /** Aliases that needed the checker after it stopped (read by their syntax). */
  later: number;
}

/** Reads alias types with the checker; see the module comment. One per extraction run. */
export class AliasChecker {
  private live: Live | undefined;
  /** In-thread checker (no compiled worker). */
  private local: ReturnType<typeof checkerProject> | undefined;
  private broken = false;
  private used = 0;
  /** Properties the checker has given so far (tooMany answers included), against {@link MAX_RUN_CHECKED_PROPERTIES}. */
  private propertiesRead = 0;
  private nextId = 1;
  /** CPU time the in-thread checker has cost (ms), where there is no worker. */
  private localMs = 0;
  private stop: Stop | undefined;
  private readonly tooMany: Array<{ file: string; name: string; at: AliasPosition; count: number }> = [];
  private readonly capped: Array<{ file: string; cuts: number; first: { line: number; column: number } }> = [];

  /** Each module's text as the checker reads it whole, once computed ({@link capConditionalNesting}). */
  private cappedTexts: Map<ModuleInfo, string> | undefined;
  /** The statements given to the checker so far this run, by module ({@link aliasTexts}). */
  private readonly given = new Map<ModuleInfo, ReadonlySet<number> | 'whole'>();
  private readonly resolver: Resolver;

  /**
   * @param modules the run's scanned modules by project-relative POSIX path (their texts are what the checker reads)
   * @param resolver the run's name resolver over `modules` (one is made when not given)
   */
  constructor(
    private readonly modules: ReadonlyMap<string, ModuleInfo>,
    resolver?: Resolver,
  ) {
    this.resolver = resolver ?? new Resolver(modules);
  }

  /**
   * The properties of type alias `name` declared in `file` at `at`, or `undefined` when the
   * checker is not used (over {@link MAX_CHECKED_ALIASES} or past its budget: noted, see
   * {@link notes}; or it failed) or the
   * type has no properties (a primitive, a union of unrelated shapes, a type from a package), or
   * more than {@link MAX_CHECKED_PROPERTIES}. Never throws.
   */
  properties(file: string, name: string, at: AliasPosition): CheckedProperty[] | undefined {
    if (this.stop) {
      this.stop.later++;
      return undefined;
    }
    if (this.broken) return undefined;
    // Past the cap, said once at the first alias left to the syntax (s47 sweep K1: it was silent).
    if (this.used >= MAX_CHECKED_ALIASES) return this.halt('aliases', file, name, at);
    if (this.propertiesRead >= MAX_RUN_CHECKED_PROPERTIES) return this.halt('properties', file, name, at);
    this.used++;
    const answer = COMPILED ? this.ask(file, name, at) : this.askHere(file, name, at);
    if (!answer) return undefined;
    this.propertiesRead += 'tooMany' in answer ? answer.tooMany : answer.properties?.length ?? 0;
    if ('tooMany' in answer) {
      this.tooMany.push({ file, name, at, count: answer.tooMany });
      return undefined;
    }
    if (!answer.properties) return undefined;
    return answer.properties.map((p) => {
      const module = p.declaration ? this.modules.get(p.declaration.file) : undefined;
      const node = module && p.declaration ? nameNodeAt(module.sf, p.declaration.start, p.declaration.end) : undefined;
      return {
        name: p.name,
        optional: p.optional,
        type: p.type,
        objectType: p.objectType,
        ...(module && node && p.declaration ? { declaration: { file: p.declaration.file, sf: module.sf, node } } : {}),
      };
    });
  }

  /** The capped texts of every scanned module, as the checker reads them whole (see {@link capConditionalNesting}); notes the cuts. */
  private texts(): Array<[string, string]> {
    if (!this.cappedTexts) {
      this.cappedTexts = new Map();
      for (const [file, module] of this.modules) {
        const capped = capConditionalNesting(module.sf);
        if (capped.first) this.capped.push({ file, cuts: capped.cuts, first: capped.first });
        this.cappedTexts.set(module, capped.text);
      }
    }
    return [...this.cappedTexts].map(([module, text]) => [module.file, text]);
  }

  /**
   * The texts the checker must be given again before reading alias `name` of `file`: the modules
   * whose statements the alias may depend on ({@link checkerStatements}) grew past what earlier
   * aliases of this run gave it (each such module with the union of both). The checker keeps one
   * program for the run, as it did when it read whole files: an alias whose statements it already
   * has costs it no parsing or binding (redocly's 40 visitor aliases share 209 files).
   */
  private aliasTexts(file: string, name: string): Array<[string, string]> {
    if (!this.cappedTexts) this.texts();
    const capped = this.cappedTexts as Map<ModuleInfo, string>;
    const grown = mergeStatements(this.given, checkerStatements(this.modules, this.resolver, file, name));
    return grown.map((module) => [module.file, keptText(module, this.given.get(module) as ReadonlySet<number> | 'whole', capped.get(module) ?? module.sf.text)]);
  }

  /** Asks the checker worker, waiting for its answer under the run's budget; `undefined` when it stopped or failed. */
  private ask(file: string, name: string, at: AliasPosition): WireAnswer | undefined {
    let live = this.live;
    if (!live) {
      try {
        const flag = new Int32Array(new SharedArrayBuffer(12));
        const { port1, port2 } = new MessageChannel();
        const worker = new Worker(new URL('./checker-worker.js', import.meta.url), {
          workerData: { port: port2, flag, texts: this.texts() },
          transferList: [port2],
          resourceLimits: { maxOldGenerationSizeMb: CHECKER_HEAP_MB, maxYoungGenerationSizeMb: 8, stackSizeMb: 8 },
          stdout: false,
          stderr: false,
        });
        worker.unref();
        port1.unref();
        // A worker that dies (out of memory) is noticed by its missing answer and ended thread.
        worker.on('error', () => {});
        live = this.live = { worker, port: port1, flag, started: Date.now() };
      } catch {
        this.broken = true;
        return undefined;
      }
    }
    const id = this.nextId++;
    live.port.postMessage({ id, file, name, texts: this.aliasTexts(file, name) } satisfies CheckerRequest);
    const wallLimit = live.started + CHECKER_BUDGET_MS * WALL_FACTOR;
    for (;;) {
      for (let m = receiveMessageOnPort(live.port); m; m = receiveMessageOnPort(live.port)) {
        const response = m.message as CheckerResponse;
        if (response.id !== id) continue;
        if ('error' in response) {
          this.end();
          this.broken = true;
          return undefined;
        }
        return response.answer;
      }
      if (Atomics.load(live.flag, 2) === -1) {
        this.end();
        this.broken = true;
        return undefined;
      }
      const tid = Atomics.load(live.flag, 1);
      const cpu = tid > 0 ? threadCpuMs(tid) : undefined;
      if (tid > 0 && cpu === undefined && Atomics.load(live.flag, 0) < id) {
        // The thread is gone without an answer: V8 stopped it at the heap limit.
        return this.halt('memory', file, name, at);
      }
      if ((cpu !== undefined && cpu > CHECKER_BUDGET_MS) || Date.now() > wallLimit) return this.halt('time', file, name, at);
      Atomics.wait(live.flag, 0, Atomics.load(live.flag, 0), 20);
    }
  }

  /** The checker in this thread (no compiled worker): the budget is checked between aliases only. */
  private askHere(file: string, name: string, at: AliasPosition): WireAnswer | undefined {
    if (this.localMs > CHECKER_BUDGET_MS) return this.halt('time', file, name, at);
    const before = process.cpuUsage();
    try {
      this.local ??= checkerProject(this.texts());
      return readAliasProperties(this.local, file, name, this.aliasTexts(file, name));
    } catch {
      this.broken = true;
      return undefined;
    } finally {
      const spent = process.cpuUsage(before);
      this.localMs += (spent.user + spent.system) / 1000;
    }
  }

  /** Ends the worker and stops reading aliases with the checker, noting why at this alias. */
  private halt(reason: Stop['reason'], file: string, name: string, at: AliasPosition): undefined {
    this.end();
    this.stop = { reason, file, name, at, later: 0 };
    return undefined;
  }

  /** Ends the checker worker, if any (it holds the checker's memory until then). */
  end(): void {
    if (!this.live) return;
    void this.live.worker.terminate().catch(() => {});
    this.live.port.close();
    this.live = undefined;
  }

  /**
   * One `parse-error` warning per file whose conditional types were cut for the checker
   * ({@link capConditionalNesting}), one per alias with too many properties, and one at the alias
   * where the checker stopped for time or memory; none when the checker was not used. Ends the
   * checker worker (the aliases are all read when the notes are asked for).
   */
  notes(): InputDiagnostic[] {
    this.end();
    const out: InputDiagnostic[] = this.capped.map(({ file, cuts, first }) => ({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${file}:${first.line}:${first.column}: a conditional type inside the \`true\` branches of ${MAX_CONDITIONAL_NESTING} others: the type checker reads it as \`any\` (${cuts} type${cuts === 1 ? '' : 's'} so cut); config types using them are partly known`,
      location: { file, line: first.line, column: first.column },
    }));
    for (const { file, name, at, count } of this.tooMany) {
      out.push({
        ruleId: 'parse-error',
        severity: 'warn',
        message: `${file}:${at.line}:${at.column}: type \`${name}\` has ${count} properties as the type checker reads it, more than the ${MAX_CHECKED_PROPERTIES} a config type may have: it is read by its syntax (its parameters may be partly known)`,
        location: { file, line: at.line, column: at.column },
      });
    }
    if (this.stop) {
      const { reason, file, name, at, later } = this.stop;
      const why =
        reason === 'time' ? `took the type checker past the ${CHECKER_BUDGET_MS / 1000} s of CPU time it may cost a run`
        : reason === 'memory' ? `needed more than the ${CHECKER_HEAP_MB} MB of memory the type checker may use`
        : reason === 'aliases' ? `comes after the ${MAX_CHECKED_ALIASES} types the type checker reads in a run, the most it reads`
        : `comes after the type checker has read ${MAX_RUN_CHECKED_PROPERTIES} properties, the most it reads in a run`;
      const rest = later > 0 ? ` and the ${later} later type${later === 1 ? '' : 's'} that needed the checker are read by their syntax` : ' is read by its syntax';
      out.push({
        ruleId: 'parse-error',
        severity: 'warn',
        message: `${file}:${at.line}:${at.column}: reading type \`${name}\` ${why}: it${rest} (parameters may be partly known)`,
        location: { file, line: at.line, column: at.column },
      });
    }
    return out;
  }
}

/**
 * The name node spanning exactly `start`..`end` (offsets, the start without leading trivia) in
 * `sf`, found by descending through the nodes that contain the span; `undefined` when none does.
 */
export function nameNodeAt(sf: ts.SourceFile, start: number, end: number): ts.Node | undefined {
  let node: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    ts.forEachChild(node, (child) => {
      if (next === undefined && child.pos <= start && end <= child.end) next = child;
    });
    if (next === undefined) return undefined;
    if (next.end === end && next.getStart(sf) === start && (ts.isIdentifier(next) || ts.isStringLiteral(next) || ts.isNumericLiteral(next) || ts.isComputedPropertyName(next) || ts.isPrivateIdentifier(next) || ts.isNoSubstitutionTemplateLiteral(next))) return next;
    node = next;
  }
}
