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
 * (bundled with ts-morph). Nothing is executed; the checker only evaluates types.
 *
 * Cost: the first alias loads and binds the standard library (about 0.75 s on a 2-core machine);
 * each further alias costs milliseconds. At most {@link MAX_CHECKED_ALIASES} aliases per run are
 * read so; past that, or when the checker fails, an alias is read as before.
 *
 * Conditional types nested in one another's `true` branches cost the checker time exponential in
 * the depth (TypeScript's `getConditionalFlowTypeOfType` and the intersections it builds, once per
 * enclosing level: `string extends string ? string extends string ? … : never : never` 14 deep
 * took 3 s, 18 deep 75 s; #33 sweep s23 D2). The checker's copy of each file has every conditional
 * type past {@link MAX_CONDITIONAL_NESTING} such levels replaced by `any` ({@link capConditionalNesting}),
 * and one `parse-error` warning per file says so ({@link AliasChecker.notes}).
 */
import { Project, ts } from 'ts-morph';
import type { InputDiagnostic } from '../../model/types.js';
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
  /** Where the property is declared, when in a project file: its name node in the checker's own parse of that file. */
  declaration?: { file: string; sf: ts.SourceFile; node: ts.Node };
}

/** Reads alias types with the checker; see the module comment. One per extraction run. */
export class AliasChecker {
  private project: Project | undefined;
  private broken = false;
  private used = 0;
  private readonly capped: Array<{ file: string; cuts: number; first: { line: number; column: number } }> = [];

  /** @param modules the run's scanned modules by project-relative POSIX path (their texts are what the checker reads). */
  constructor(private readonly modules: ReadonlyMap<string, ModuleInfo>) {}

  /**
   * The properties of type alias `name` declared in `file`, or `undefined` when the checker is
   * not used (over {@link MAX_CHECKED_ALIASES}, or it failed) or the type has no properties (a
   * primitive, a union of unrelated shapes, a type from a package). Never throws.
   */
  properties(file: string, name: string): CheckedProperty[] | undefined {
    if (this.broken || this.used >= MAX_CHECKED_ALIASES) return undefined;
    this.used++;
    try {
      const project = this.load();
      const path = `/${file}`;
      const sf = project.getSourceFile(path) ?? project.addSourceFileAtPathIfExists(path);
      if (!sf) return undefined;
      project.resolveSourceFileDependencies();
      const alias = sf.getTypeAlias(name);
      if (!alias) return undefined;
      const type = alias.getType();
      if (type.isAny() || type.isUnknown() || !type.isObject() && !type.isIntersection()) return undefined;
      const out: CheckedProperty[] = [];
      for (const symbol of type.getProperties()) {
        const propertyType = symbol.getTypeAtLocation(alias);
        const nonNullable = propertyType.getNonNullableType();
        const objectType = nonNullable.isObject() && !nonNullable.isArray() && !nonNullable.isTuple() && nonNullable.getCallSignatures().length === 0;
        const declared = symbol.getDeclarations()[0];
        const declFile = declared?.getSourceFile();
        const declPath = declFile?.getFilePath().slice(1);
        const nameNode = declared && ts.isPropertySignature(declared.compilerNode) || declared && ts.isPropertyDeclaration(declared.compilerNode) || declared && ts.isPropertyAssignment(declared.compilerNode) || declared && ts.isShorthandPropertyAssignment(declared.compilerNode)
          ? (declared.compilerNode as ts.NamedDeclaration).name
          : undefined;
        out.push({
          name: symbol.getName(),
          optional: symbol.hasFlags(ts.SymbolFlags.Optional),
          // `seed?: number` prints as `number | undefined`: the `?` already says it may be left out.
          type: (symbol.hasFlags(ts.SymbolFlags.Optional) ? nonNullable : propertyType).getText(alias, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope),
          objectType,
          ...(nameNode && declFile && declPath !== undefined && this.modules.has(declPath) ? { declaration: { file: declPath, sf: declFile.compilerNode, node: nameNode } } : {}),
        });
      }
      return out.length > 0 ? out : undefined;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /** The in-memory project: every scanned module's text under `/<path>`, read only when an alias's file imports it. */
  private load(): Project {
    if (this.project) return this.project;
    const project = new Project({
      useInMemoryFileSystem: true,
      skipAddingFilesFromTsConfig: true,
      compilerOptions: {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowJs: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
    });
    const fs = project.getFileSystem();
    for (const [file, module] of this.modules) {
      const capped = capConditionalNesting(module.sf);
      if (capped.first) this.capped.push({ file, cuts: capped.cuts, first: capped.first });
      fs.writeFileSync(`/${file}`, capped.text);
    }
    this.project = project;
    return project;
  }

  /**
   * One `parse-error` warning per file whose conditional types were cut for the checker
   * ({@link capConditionalNesting}); none when the checker was not used.
   */
  notes(): InputDiagnostic[] {
    return this.capped.map(({ file, cuts, first }) => ({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${file}:${first.line}:${first.column}: a conditional type inside the \`true\` branches of ${MAX_CONDITIONAL_NESTING} others: the type checker reads it as \`any\` (${cuts} type${cuts === 1 ? '' : 's'} so cut); config types using them are partly known`,
      location: { file, line: first.line, column: first.column },
    }));
  }
}
