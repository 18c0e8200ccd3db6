/** Builds ConfigClasses from interfaces, classes, object type aliases and zod schemas, resolving bases and nested config types across files. */
import { ts } from 'ts-morph';
import type { ConfigClass, DefaultValue, InputDiagnostic, ParamSpec } from '../../model/types.js';
import type { Resolver } from './resolve.js';
import type { Declaration, ModuleInfo } from './scan.js';
import { defaultOf, dottedName, hasModifier, locationOf, propertyName, readDoc, skipOuter, skipParens, typeText } from './syntax.js';
import type { ConfigAnalysis, Owner, Shape } from './types.js';
import { readZodObject, zodInferTarget } from './zod.js';
import { InheritedBudget, MAX_INHERITED_FIELDS } from '../inherited-budget.js';
import type { AliasChecker } from './checked.js';

/** Mapping types whose instances accept any key (`Record<string, T>` only with an open key type). */
const OPEN_TYPE_NAMES = new Set(['Map', 'ReadonlyMap', 'Dict', 'Dictionary', 'Mapping', 'StringMap', 'JsonObject', 'JSONObject', 'AnyObject', 'PlainObject', 'UnknownRecord', 'Object']);
/** Utility types that keep an object type's keys. */
const KEY_PRESERVING = new Set(['Partial', 'Required', 'Readonly', 'NonNullable', 'DeepPartial', 'DeepReadonly', 'DeepRequired']);
/** Conventional deep utility types, read through even when declared in the project (as mapped types). */
const DEEP_UTILITIES = new Set(['DeepPartial', 'DeepReadonly', 'DeepRequired']);
/** `Record` key types that mean "any key". */
const OPEN_KEYS = new Set([ts.SyntaxKind.StringKeyword, ts.SyntaxKind.AnyKeyword, ts.SyntaxKind.UnknownKeyword]);

/**
 * How many levels of named bases (`interface I2 extends I1`, `class B extends A`, `A & B`) a
 * config type's inherited fields are read through. Each type holds its inherited fields, so a
 * chain of n types holds n²/2 of them: 5,000 took 18 s and 2.5 GB (#33 sweep D13). Past the
 * limit a type gets its own fields and those of the nearer levels only, with `unreadFields` and
 * one warning per file.
 */
export const MAX_BASE_DEPTH = 64;
/** How many config types may be being built inside one another (a chain read from its far end) before a base is left unread. */
const MAX_BUILD_NESTING = 500;
/** How many plain aliases (`type A = B`) one type reference is followed through to the config type it names. */
const MAX_ALIAS_CHAIN = 64;

/** Qualified name in the model's TypeScript form: `<file>#<TypeName>`. */
export function qualify(file: string, name: string): string {
  return `${file}#${name}`;
}

/** Merges `from` into `into`: a later field replaces an earlier one of the same name, keeping its position (bases first, like MRO order). */
function mergeInto(into: Map<string, ParamSpec>, from: Iterable<ParamSpec>): void {
  for (const spec of from) into.set(spec.name, spec);
}

/**
 * Lazily analyses declarations, memoised per declaration so each is read once, with cycle
 * guards (a type that reaches itself through `extends` or aliases gets no fields from the cycle).
 */
export class Analysis implements ConfigAnalysis {
  private readonly memo = new Map<Declaration, ConfigClass | null>();
  private readonly inProgress = new Set<Declaration>();
  /** By qualified name: levels of named bases a built type's fields come through, and where a limit cut them. */
  private readonly depths = new Map<string, number>();
  private readonly cuts = new Map<string, NonNullable<ConfigClass['unreadFields']>>();
  /** How many times {@link MAX_BUILD_NESTING} left a base unread. */
  private nestingCuts = 0;
  /** Per file: the first type whose inherited fields a limit cut, and how many were. */
  private readonly cutNotes = new Map<string, { cut: NonNullable<ConfigClass['unreadFields']>; types: number }>();
  /** The inherited fields this run's types hold, bounded by {@link MAX_INHERITED_FIELDS} (a fan of types over one large base, #33 sweep s27 D14). */
  private readonly budget = new InheritedBudget();
  /** Nested object types without a name of their own (`a: { … }`, `a: z.object({…})`), by qualified name. */
  readonly synthetic = new Map<string, ConfigClass>();

  /** @param checker reads the aliases whose form the syntax does not give ({@link checkable}); without one they are read as before. */
  constructor(
    readonly resolver: Resolver,
    private readonly checker?: AliasChecker,
  ) {}

  /** The config type with this qualified name (`file#Name`, or a synthetic `file#Parent.field`), if it has been or can be built. */
  byQualifiedName(qualifiedName: string): ConfigClass | undefined {
    const synthetic = this.synthetic.get(qualifiedName);
    if (synthetic) return synthetic;
    const hash = qualifiedName.lastIndexOf('#');
    const module = this.resolver.modules.get(qualifiedName.slice(0, hash));
    const name = qualifiedName.slice(hash + 1);
    const decl = module?.types.get(name) ?? module?.values.get(name);
    return module && decl ? (this.configOf(module, decl) ?? undefined) : undefined;
  }

  /**
   * The config type a declaration defines, `null` when it defines none: interfaces and classes
   * always do (possibly with no fields), type aliases when their type is an object literal, an
   * intersection or a key-preserving utility type (`Partial<X>`, `Pick<X, 'a'>`), variables
   * when their initializer is a zod object schema. Functions never do.
   */
  configOf(module: ModuleInfo, decl: Declaration): ConfigClass | null {
    const known = this.memo.get(decl);
    if (known !== undefined) return known;
    if (this.inProgress.has(decl)) return null;
    // Built from the far end of a long chain: left unread here (not memoised; read on its own
    // later), and the type that asked is cut (see addBase).
    if (this.inProgress.size >= MAX_BUILD_NESTING) {
      this.nestingCuts++;
      return null;
    }
    this.inProgress.add(decl);
    let result: ConfigClass | null = null;
    try {
      result = this.build(module, decl);
    } finally {
      this.inProgress.delete(decl);
    }
    this.memo.set(decl, result);
    return result;
  }

  /**
   * Like {@link configOf}, but a declaration whose fields are being read right now (a recursive
   * type: `children?: Node[]`, `next: Node`, `z.lazy(() => S)`) yields a field-less stand-in with
   * its name, so a field can still refer to it; an `extends` cycle gets no fields from it.
   */
  configOrPending(module: ModuleInfo, decl: Declaration): ConfigClass | null {
    if (!this.inProgress.has(decl)) return this.configOf(module, decl);
    if (decl.kind === 'function') return null;
    const nameNode = decl.kind === 'interface' ? (decl.nodes[0] as ts.InterfaceDeclaration).name : decl.kind === 'class' ? (decl.node.name ?? decl.node) : decl.node.name;
    return {
      name: decl.name,
      qualifiedName: qualify(module.file, decl.name),
      module: module.file,
      kind: decl.kind === 'variable' ? 'zod' : decl.kind,
      bases: [],
      fields: [],
      location: locationOf(module.file, module.sf, nameNode),
    };
  }

  /** True while the declaration's fields are being read (see {@link configOrPending}). */
  isPending(decl: Declaration): boolean {
    return this.inProgress.has(decl);
  }

  private build(module: ModuleInfo, decl: Declaration): ConfigClass | null {
    if (decl.kind === 'function') return null;
    const kind: ConfigClass['kind'] = decl.kind === 'variable' ? 'zod' : decl.kind;
    const owner: Owner = { name: decl.name, qualifiedName: qualify(module.file, decl.name), kind, module };
    let shape: Shape | undefined;
    let nameNode: ts.Node;
    let aliasOf: string | undefined;
    switch (decl.kind) {
      case 'interface': {
        shape = { fields: new Map(), bases: [] };
        for (const node of decl.nodes) {
          for (const clause of node.heritageClauses ?? []) {
            for (const base of clause.types) this.addBase(module, base, owner, shape);
          }
        }
        for (const node of decl.nodes) mergeInto(shape.fields, this.members(module, node.members, owner).values());
        nameNode = (decl.nodes[0] as ts.InterfaceDeclaration).name;
        break;
      }
      case 'class': {
        shape = { fields: new Map(), bases: [] };
        const ext = decl.node.heritageClauses?.find((c) => c.token === ts.SyntaxKind.ExtendsKeyword)?.types[0];
        if (ext) this.addBase(module, ext, owner, shape);
        mergeInto(shape.fields, this.classMembers(module, decl.node, owner).values());
        nameNode = decl.node.name ?? decl.node;
        break;
      }
      case 'type-alias': {
        const type = skipParens(decl.node.type);
        // A form only the type checker expands (a generic alias applied, a mapped type, `typeof`, …).
        if (this.checker && decl.node.typeParameters === undefined && this.containsCheckable(module, type)) {
          const checked = this.checkedShape(module, decl.node, owner);
          if (checked) {
            shape = checked;
            nameNode = decl.node.name;
            break;
          }
        }
        const objectLike =
          ts.isTypeLiteralNode(type) ||
          ts.isIntersectionTypeNode(type) ||
          (ts.isTypeReferenceNode(type) && this.isUtility(module, type) && type.typeArguments !== undefined) ||
          (ts.isTypeReferenceNode(type) && this.wrapsInline(module, type));
        if (!objectLike) {
          // `type Config = Base` (also through more aliases and imports): the type it names, under
          // this name too, so that a config entry may name the alias (#33 sweep D11).
          const target = ts.isTypeReferenceNode(type) ? this.configTarget(module, type) : undefined;
          // `type Options = z.infer<typeof Options>` names its own schema: that one is the config type.
          if (!target || target.fields.length === 0 || target.qualifiedName === owner.qualifiedName) return null;
          aliasOf = target.qualifiedName;
          // Past the run's budget of inherited fields it lists none: a use of it reads the type it names (aliasOf).
          if (!this.budget.take(target.fields.length)) {
            shape = { fields: new Map(), bases: [target.qualifiedName], cut: this.budget.cut(locationOf(module.file, module.sf, type), `type ${owner.name} = ${type.getText(module.sf).slice(0, 60)}`) };
            nameNode = decl.node.name;
            break;
          }
          shape = { fields: new Map(target.fields.map((f) => [f.name, f])), bases: [target.qualifiedName], depth: this.depths.get(target.qualifiedName) ?? 0, ...(target.unreadFields ? { cut: target.unreadFields } : {}) };
          nameNode = decl.node.name;
          break;
        }
        shape = this.shapeOfType(module, type, owner);
        nameNode = decl.node.name;
        break;
      }
      case 'variable': {
        shape = readZodObject(this, module, decl.node.initializer, owner, new Set());
        nameNode = decl.node.name;
        break;
      }
    }
    if (!shape) return null;
    this.depths.set(owner.qualifiedName, shape.depth ?? 0);
    if (shape.cut) {
      this.cuts.set(owner.qualifiedName, shape.cut);
    }
    // A budget cut is counted where it is made (InheritedBudget.cut); a depth cut here.
    if (shape.cut && !this.budget.isBudgetCut(shape.cut)) {
      const note = this.cutNotes.get(shape.cut.location.file);
      if (note) note.types++;
      else this.cutNotes.set(shape.cut.location.file, { cut: shape.cut, types: 1 });
    }
    return {
      name: decl.name,
      qualifiedName: owner.qualifiedName,
      module: module.file,
      kind,
      bases: shape.bases,
      fields: [...shape.fields.values()],
      location: locationOf(module.file, module.sf, nameNode),
      ...(shape.cut ? { unreadFields: shape.cut } : {}),
      ...(aliasOf !== undefined ? { aliasOf } : {}),
    };
  }

  /**
   * True when an alias's type is a form the syntactic reader does not expand but the type checker
   * does (src/extract/typescript/checked.ts): a mapped type, `typeof x`, a conditional or indexed
   * access type, `Record<K, V>` with keys that are not `string` (those are an open map), or a
   * generic type alias of this project, applied to type arguments (`Wrap<Base>`, `Id<Base>`) or
   * to its defaults (`Deep`).
   */
  private checkable(module: ModuleInfo, type: ts.TypeNode): boolean {
    if (ts.isMappedTypeNode(type) || ts.isConditionalTypeNode(type) || ts.isIndexedAccessTypeNode(type)) return true;
    // `typeof defaults` of an object literal (`const defaults = { … }`): the options' own shape. Not
    // `typeof createOptions` (a function: what it returns is a program's inner state, knip's
    // `Awaited<ReturnType<typeof createOptions>>`), nor an import.
    if (ts.isTypeQueryNode(type)) {
      if (!ts.isIdentifier(type.exprName)) return false;
      const decl = module.values.get(type.exprName.text);
      const init = decl?.kind === 'variable' ? decl.node.initializer : undefined;
      return init !== undefined && ts.isObjectLiteralExpression(skipOuter(init));
    }
    if (!ts.isTypeReferenceNode(type)) return false;
    const name = dottedName(type.typeName);
    if (!name) return false;
    if (name.length === 1 && name[0] === 'Record' && !module.types.has('Record') && !module.imports.has('Record') && type.typeArguments?.length === 2) {
      const key = skipParens(type.typeArguments[0]!);
      return !OPEN_KEYS.has(key.kind) && key.kind !== ts.SyntaxKind.NumberKeyword && key.kind !== ts.SyntaxKind.SymbolKeyword;
    }
    const resolved = this.resolver.resolve(module, name, 'types');
    return resolved?.kind === 'declaration' && resolved.decl.kind === 'type-alias' && resolved.decl.node.typeParameters !== undefined;
  }

  /**
   * True when {@link checkable} holds for `type` or any type inside it (`Partial<Wrap<Base>>`,
   * `Readonly<typeof defaults> & { … }`, `Pick<Record<Level, number>, 'low'>`): the syntax gives a
   * wrong or no shape for the whole alias then, so the checker reads all of it (#33 fresh sweep s20
   * D5). A `typeof` inside a package generic's arguments (zod's `z.infer<typeof S>`) is not one:
   * the checker, which does not read packages, would learn nothing from it.
   */
  private containsCheckable(module: ModuleInfo, type: ts.TypeNode): boolean {
    let found = false;
    const visit = (node: ts.Node, inPackageGeneric: boolean): void => {
      if (found) return;
      if (ts.isTypeNode(node) && !(inPackageGeneric && ts.isTypeQueryNode(node)) && this.checkable(module, node)) {
        found = true;
        return;
      }
      // Only the positions that make the alias's own shape: intersection and union members,
      // parentheses, type operators and type arguments; not a property's value type inside a type
      // literal (`bundleOutput?: OutputOptions["bundleOutput"]` is read as it is written, and the
      // alias keeps its named bases: rnx-kit's `BundleConfig = BundleParameters & {…}`).
      if (ts.isIntersectionTypeNode(node) || ts.isUnionTypeNode(node)) for (const t of node.types) visit(t, inPackageGeneric);
      else if (ts.isParenthesizedTypeNode(node) || ts.isTypeOperatorNode(node)) visit(node.type, inPackageGeneric);
      else if (ts.isTypeReferenceNode(node)) {
        const head = dottedName(node.typeName)?.[0];
        const binding = head !== undefined ? module.imports.get(head) : undefined;
        const fromPackage = binding !== undefined && !binding.specifier.startsWith('.') && !binding.specifier.startsWith('/');
        for (const t of node.typeArguments ?? []) visit(t, inPackageGeneric || fromPackage);
      }
    };
    visit(type, false);
    return found;
  }

  /** The shape of alias `node` as the type checker gives it, or `undefined` when it gives none (see {@link AliasChecker.properties}). */
  private checkedShape(module: ModuleInfo, node: ts.TypeAliasDeclaration, owner: Owner): Shape | undefined {
    const start = module.sf.getLineAndCharacterOfPosition(node.name.getStart(module.sf));
    const properties = this.checker?.properties(module.file, node.name.text, { line: start.line + 1, column: start.character + 1 });
    if (!properties) return undefined;
    const fields = new Map<string, ParamSpec>();
    for (const p of properties) {
      const declared = p.declaration;
      const doc = declared ? readDoc(declared.node.parent) : { hidden: false as const };
      const defaultValue: DefaultValue | undefined = doc.defaultText !== undefined ? { kind: 'literal', text: doc.defaultText } : undefined;
      fields.set(p.name, {
        name: p.name,
        aliases: [],
        type: p.type,
        ...(defaultValue ? { default: defaultValue } : {}),
        required: !p.optional && defaultValue === undefined,
        ...(doc.summary !== undefined ? { description: doc.summary } : {}),
        deprecated: doc.deprecated ?? false,
        hidden: doc.hidden,
        origin: 'config-field',
        owner: owner.name,
        // Declared in a project file: there; else (a key a mapped type or Record makes) the alias's name.
        location: declared ? locationOf(declared.file, declared.sf, declared.node) : locationOf(module.file, module.sf, node.name),
        // Nested types are not followed through the checker: an object-typed property takes any sub-key.
        ...(p.objectType ? { openNamespace: true } : {}),
      });
    }
    return { fields, bases: [] };
  }

  /** One `parse-error` warning per file where {@link MAX_BASE_DEPTH} cut inherited fields. */
  baseDepthNotes(): InputDiagnostic[] {
    return [...this.depthNotes(), ...this.budget.diagnostics('type')];
  }

  private depthNotes(): InputDiagnostic[] {
    return [...this.cutNotes.values()].map(({ cut, types }) => ({
      ruleId: 'parse-error',
      severity: 'warn',
      message: `${cut.location.file}:${cut.location.line}:${cut.location.column}: \`${cut.construct}\` is past ${cut.cut}: the fields it inherits from farther bases are not read (${types} type${types === 1 ? '' : 's'} so cut); commands using them are partly known`,
      location: { file: cut.location.file, line: cut.location.line, column: cut.location.column },
    }));
  }

  /** Adds the fields of an `extends` entry (or intersection member) to `shape`, recording it as a base. */
  private addBase(module: ModuleInfo, base: ts.ExpressionWithTypeArguments | ts.TypeNode, owner: Owner, shape: Shape): void {
    const nestingCuts = this.nestingCuts;
    const found = this.shapeOfType(module, base, owner);
    if (!found && this.nestingCuts > nestingCuts) {
      shape.bases.push(base.getText(module.sf));
      shape.cut ??= { location: locationOf(module.file, module.sf, base), construct: `${owner.name} extends ${base.getText(module.sf).slice(0, 60)}`, cut: `${MAX_BUILD_NESTING} bases read inside one another` };
      return;
    }
    if (found) {
      // Levels of named bases the fields come through: one more than the deepest named base's.
      const level = Math.max(found.depth ?? 0, ...found.bases.map((b) => (this.depths.has(b) ? (this.depths.get(b) as number) + 1 : 0)));
      shape.bases.push(...found.bases);
      if (level > MAX_BASE_DEPTH) {
        // Its fields are not merged: this type starts a new count (own fields, then nearer levels).
        shape.cut ??= { location: locationOf(module.file, module.sf, base), construct: `${owner.name} extends ${base.getText(module.sf).slice(0, 60)}`, cut: `${MAX_BASE_DEPTH} levels of bases` };
        return;
      }
      // Past the run's budget of inherited fields its fields are not merged either (own fields only).
      if (!this.budget.take(found.fields.size)) {
        shape.cut ??= this.budget.cut(locationOf(module.file, module.sf, base), `${owner.name} extends ${base.getText(module.sf).slice(0, 60)}`);
        return;
      }
      mergeInto(shape.fields, found.fields.values());
      shape.depth = Math.max(shape.depth ?? 0, level);
      shape.cut ??= found.cut ?? found.bases.map((b) => this.cuts.get(b)).find((c) => c !== undefined);
    } else {
      shape.bases.push(base.getText(module.sf));
    }
  }

  /**
   * The type a generic wrapper stands for: the first type argument of a reference to a generic
   * imported from a package (`Arguments<T>` from yargs, `DeepPartial<T>` from ts-essentials) or of
   * a `Deep*` utility declared locally (a mapped type docdrift does not expand). `undefined` for
   * anything else.
   */
  wrapped(module: ModuleInfo, ref: ts.TypeReferenceNode | ts.ExpressionWithTypeArguments): ts.TypeNode | undefined {
    const first = ref.typeArguments?.[0];
    if (!first || ts.isTypeQueryNode(first)) return undefined; // `z.infer<typeof S>` is zod's, read elsewhere
    const name = dottedName(ts.isTypeReferenceNode(ref) ? ref.typeName : ref.expression);
    if (!name) return undefined;
    const head = name[0] as string;
    if (name.length === 1 && DEEP_UTILITIES.has(head) && !module.imports.has(head)) return first;
    const binding = module.imports.get(head);
    const fromPackage = binding !== undefined && !binding.specifier.startsWith('.') && !binding.specifier.startsWith('/');
    return fromPackage ? first : undefined;
  }

  /** A wrapper (see {@link wrapped}) around an inline object type, possibly under more wrappers: `Arguments<Partial<{ port: number }>>`. A wrapper around a named type is an alias of it. */
  private wrapsInline(module: ModuleInfo, ref: ts.TypeReferenceNode): boolean {
    let inner: ts.TypeNode | undefined = this.wrapped(module, ref);
    for (let i = 0; i < 8 && inner; i++) {
      const t = skipParens(inner);
      if (ts.isTypeLiteralNode(t) || ts.isIntersectionTypeNode(t)) return true;
      if (!ts.isTypeReferenceNode(t)) return false;
      inner = this.isUtility(module, t) ? t.typeArguments?.[0] : this.wrapped(module, t);
    }
    return false;
  }

  /** True when a type reference names a key-preserving or key-filtering utility type (`Partial`, `Pick`, `Omit`, …) not shadowed by a local declaration. */
  private isUtility(module: ModuleInfo, ref: ts.TypeReferenceNode | ts.ExpressionWithTypeArguments): boolean {
    const name = dottedName(ts.isTypeReferenceNode(ref) ? ref.typeName : ref.expression);
    if (name?.length !== 1) return false;
    const n = name[0] as string;
    return (KEY_PRESERVING.has(n) || n === 'Pick' || n === 'Omit') && !module.types.has(n) && !module.imports.has(n);
  }

  /**
   * The fields an object-like type contributes: a type literal's members, an intersection's
   * members in order, a config type's fields (`bases` gets its qualified name), utility types
   * over those (`Partial` and `DeepPartial` make every field optional, `Required` makes fields
   * without a default required, `Pick`/`Omit` filter by string-literal keys). `undefined` for
   * anything else (keywords, unions, unresolved names).
   */
  shapeOfType(module: ModuleInfo, node: ts.TypeNode | ts.ExpressionWithTypeArguments, owner: Owner): Shape | undefined {
    const type = ts.isExpressionWithTypeArguments(node) ? node : skipParens(node);
    if (ts.isTypeLiteralNode(type)) return { fields: this.members(module, type.members, owner), bases: [] };
    if (ts.isIntersectionTypeNode(type)) {
      const shape: Shape = { fields: new Map(), bases: [] };
      for (const member of type.types) this.addBase(module, member, owner, shape);
      return shape;
    }
    if (!ts.isTypeReferenceNode(type) && !ts.isExpressionWithTypeArguments(type)) return undefined;
    const args = type.typeArguments ?? [];
    if (this.isUtility(module, type) && args[0]) {
      const name = (dottedName(ts.isTypeReferenceNode(type) ? type.typeName : type.expression) as string[])[0] as string;
      const inner = this.shapeOfType(module, args[0], owner);
      if (!inner) return undefined;
      const keys = name === 'Pick' || name === 'Omit' ? literalKeys(args[1]) : undefined;
      if ((name === 'Pick' || name === 'Omit') && keys === undefined) return inner; // keys we cannot read: keep all
      const fields = new Map<string, ParamSpec>();
      for (const [key, spec] of inner.fields) {
        if (name === 'Pick' && !keys?.has(key)) continue;
        if (name === 'Omit' && keys?.has(key)) continue;
        if (name === 'Partial' || name === 'DeepPartial') fields.set(key, spec.required ? { ...spec, required: false } : spec);
        else if (name === 'Required' || name === 'DeepRequired') fields.set(key, !spec.required && !spec.default ? { ...spec, required: true } : spec);
        else fields.set(key, spec);
      }
      return { fields, bases: inner.bases };
    }
    const target = this.configTarget(module, type);
    if (target) return { fields: new Map(target.fields.map((f) => [f.name, f])), bases: [target.qualifiedName] };
    const inner = this.wrapped(module, type);
    if (!inner) return undefined;
    const shape = this.shapeOfType(module, inner, owner);
    const name = dottedName(ts.isTypeReferenceNode(type) ? type.typeName : type.expression)?.at(-1);
    if (!shape || name !== 'DeepPartial') return shape;
    return { fields: new Map([...shape.fields].map(([k, f]) => [k, f.required ? { ...f, required: false } : f])), bases: shape.bases };
  }

  /**
   * The config type a type reference names, following imports, plain aliases
   * (`type Options = CliOptions`) and zod's `z.infer<typeof Schema>` (also `z.input`,
   * `z.output`, `z.TypeOf`). `undefined` when it names no config type with fields.
   */
  configTarget(module: ModuleInfo, ref: ts.TypeReferenceNode | ts.ExpressionWithTypeArguments, seen = new Set<ts.Node>()): ConfigClass | undefined {
    // A chain of aliases is followed at most MAX_ALIAS_CHAIN names deep (a cycle stops at once).
    if (seen.has(ref) || seen.size >= MAX_ALIAS_CHAIN) return undefined;
    seen.add(ref);
    const zodTarget = ts.isTypeReferenceNode(ref) ? zodInferTarget(this, module, ref) : undefined;
    if (zodTarget) return zodTarget;
    const name = dottedName(ts.isTypeReferenceNode(ref) ? ref.typeName : ref.expression);
    const resolved = name ? this.resolver.resolve(module, name, 'types') : undefined;
    if (resolved?.kind !== 'declaration') return undefined;
    const config = this.configOrPending(resolved.module, resolved.decl);
    // An alias of a config type stands for that type wherever it is used (its fields' owner).
    const target = config?.aliasOf !== undefined ? (this.byQualifiedName(config.aliasOf) ?? config) : config;
    if (target) return target.fields.length > 0 || this.inProgress.has(resolved.decl) ? target : undefined;
    if (resolved.decl.kind === 'type-alias') {
      const aliased = skipParens(resolved.decl.node.type);
      if (ts.isTypeReferenceNode(aliased)) return this.configTarget(resolved.module, aliased, seen);
    }
    return undefined;
  }

  /**
   * The config type a type annotation stands for, looking through `T | undefined`, `T | null`,
   * parentheses and key-preserving wrappers (`Partial<T>`, `Readonly<T>`); used for nested
   * fields and for the bin heuristic.
   */
  targetOfType(module: ModuleInfo, node: ts.TypeNode): ConfigClass | undefined {
    const type = stripNullish(node);
    if (!type || !ts.isTypeReferenceNode(type)) return undefined;
    if (this.isUtility(module, type) && type.typeArguments?.[0]) {
      const name = (dottedName(type.typeName) as string[])[0] as string;
      return KEY_PRESERVING.has(name) ? this.targetOfType(module, type.typeArguments[0]) : undefined;
    }
    const target = this.configTarget(module, type);
    if (target) return target;
    const inner = this.wrapped(module, type);
    return inner ? this.targetOfType(module, inner) : undefined;
  }

  /** Property signatures of an interface or type literal as specs; methods, index and call signatures are skipped. */
  private members(module: ModuleInfo, members: ts.NodeArray<ts.TypeElement>, owner: Owner): Map<string, ParamSpec> {
    const out = new Map<string, ParamSpec>();
    for (const member of members) {
      if (!ts.isPropertySignature(member)) continue;
      const name = propertyName(member.name);
      if (name === undefined) continue;
      out.set(name, this.spec(module, owner, member, name, member.type, member.questionToken !== undefined, undefined));
    }
    return out;
  }

  /**
   * Instance fields of a class: property declarations and constructor parameter properties, in
   * source order. Static, `private`, `protected` and `#private` members, methods, accessors and
   * properties initialised with a function (bound methods) or with a clipanion option
   * (`Option.String(…)`: a CLI flag) are skipped.
   */
  private classMembers(module: ModuleInfo, node: ts.ClassDeclaration, owner: Owner): Map<string, ParamSpec> {
    const out = new Map<string, ParamSpec>();
    const hidden = (m: ts.Node): boolean =>
      hasModifier(m, ts.SyntaxKind.StaticKeyword) || hasModifier(m, ts.SyntaxKind.PrivateKeyword) || hasModifier(m, ts.SyntaxKind.ProtectedKeyword);
    for (const member of node.members) {
      if (ts.isPropertyDeclaration(member)) {
        if (hidden(member) || ts.isPrivateIdentifier(member.name)) continue;
        const init = member.initializer;
        if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) continue;
        // A clipanion option (`port = Option.String('-p,--port')`) is a CLI flag the flag reader reads, not a config field.
        if (init && isClipanionOption(module, init)) continue;
        const name = propertyName(member.name);
        if (name === undefined) continue;
        out.set(name, this.spec(module, owner, member, name, member.type, member.questionToken !== undefined, init));
      } else if (ts.isConstructorDeclaration(member)) {
        for (const param of member.parameters) {
          if (!ts.isParameterPropertyDeclaration(param, member) || hidden(param) || !ts.isIdentifier(param.name)) continue;
          const name = param.name.text;
          out.set(name, this.spec(module, owner, param, name, param.type, param.questionToken !== undefined, param.initializer));
        }
      }
    }
    return out;
  }

  /** One field: the default comes from the initializer, else the JSDoc `@default`/`@defaultValue` tag. */
  private spec(
    module: ModuleInfo,
    owner: Owner,
    node: ts.PropertySignature | ts.PropertyDeclaration | ts.ParameterDeclaration,
    name: string,
    type: ts.TypeNode | undefined,
    question: boolean,
    initializer: ts.Expression | undefined,
  ): ParamSpec {
    const doc = readDoc(node);
    const defaultValue: DefaultValue | undefined = initializer
      ? defaultOf(initializer, module.sf)
      : doc.defaultText !== undefined
        ? { kind: 'literal', text: doc.defaultText }
        : undefined;
    const optional = question || (type !== undefined && unionHasUndefined(type));
    const text = type ? typeText(type, module.sf) : undefined;
    const nested = type && text !== undefined ? this.nested(module, owner, name, type, node.name) : {};
    return {
      name,
      aliases: [],
      ...(text !== undefined ? { type: text } : {}),
      ...(defaultValue ? { default: defaultValue } : {}),
      required: !optional && defaultValue === undefined,
      ...(doc.summary !== undefined ? { description: doc.summary } : {}),
      deprecated: doc.deprecated ?? false,
      hidden: doc.hidden,
      origin: 'config-field',
      owner: owner.name,
      location: locationOf(module.file, module.sf, node.name),
      ...nested,
    };
  }

  /**
   * `typeRef`/`openNamespace` for a field's type: a config type (through `| undefined`,
   * `| null`, `Partial`, `Readonly`, aliases and imports) gives `typeRef`; an inline object
   * type with properties becomes a synthetic config type `<owner>.<field>`; `Record<string, …>`,
   * index-signature-only types, `Map`, `object`, `unknown`, `any`, `{}` and dictionary-named
   * types give `openNamespace`. A config type that also has a string index signature gives both.
   * `Record<string, Foo>` and an index-signature-only type `{ [name: string]: Foo }` whose value
   * type is a config type (or an inline object type) also give `valueTypeRef`: the key below the
   * field is free, the one after it is checked.
   */
  nested(module: ModuleInfo, owner: Owner, field: string, node: ts.TypeNode, nameNode: ts.Node, seen = new Set<ts.Node>()): { typeRef?: string; openNamespace?: boolean; valueTypeRef?: string } {
    const openWith = (value: ts.TypeNode | undefined): { openNamespace: true; valueTypeRef?: string } => {
      const inner = value ? this.nested(module, owner, field, value, nameNode, seen) : {};
      return inner.typeRef !== undefined && !inner.openNamespace ? { openNamespace: true, valueTypeRef: inner.typeRef } : { openNamespace: true };
    };
    const type = stripNullish(node);
    if (!type || seen.has(type)) return {};
    seen.add(type);
    switch (type.kind) {
      case ts.SyntaxKind.ObjectKeyword:
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.AnyKeyword:
        return { openNamespace: true };
      case ts.SyntaxKind.MappedType:
        return { openNamespace: true };
      case ts.SyntaxKind.TypeLiteral: {
        const literal = type as ts.TypeLiteralNode;
        const open = hasOpenIndex(literal.members) || literal.members.length === 0;
        if (!literal.members.some(ts.isPropertySignature)) return open ? openWith(openIndexValue(literal.members)) : {};
        const qualifiedName = `${owner.qualifiedName}.${field}`;
        let synthetic = this.synthetic.get(qualifiedName);
        if (!synthetic) {
          const inner: Owner = { name: `${owner.name}.${field}`, qualifiedName, kind: owner.kind, module };
          synthetic = {
            name: inner.name,
            qualifiedName,
            module: module.file,
            kind: owner.kind,
            bases: [],
            fields: [],
            location: locationOf(module.file, module.sf, nameNode),
          };
          this.synthetic.set(qualifiedName, synthetic);
          synthetic.fields = [...this.members(module, literal.members, inner).values()];
        }
        return { typeRef: qualifiedName, ...(open ? { openNamespace: true } : {}) };
      }
      case ts.SyntaxKind.IntersectionType: {
        // `Lookup & { aliases?: string[] }`: a synthetic type with the members' fields in order.
        const qualifiedName = `${owner.qualifiedName}.${field}`;
        let synthetic = this.synthetic.get(qualifiedName);
        if (!synthetic) {
          const inner: Owner = { name: `${owner.name}.${field}`, qualifiedName, kind: owner.kind, module };
          const shape = this.shapeOfType(module, type, inner);
          if (!shape || shape.fields.size === 0) return {};
          synthetic = {
            name: inner.name,
            qualifiedName,
            module: module.file,
            kind: owner.kind,
            bases: shape.bases,
            fields: [...shape.fields.values()],
            location: locationOf(module.file, module.sf, nameNode),
          };
          this.synthetic.set(qualifiedName, synthetic);
        }
        return { typeRef: qualifiedName };
      }
      case ts.SyntaxKind.TypeReference: {
        const ref = type as ts.TypeReferenceNode;
        const target = this.targetOfType(module, ref);
        if (target) return { typeRef: target.qualifiedName, ...(this.acceptsAnyKey(target) ? { openNamespace: true } : {}) };
        const utilityName = this.isUtility(module, ref) ? dottedName(ref.typeName)?.[0] : undefined;
        const wrappedType = utilityName !== undefined && KEY_PRESERVING.has(utilityName) ? ref.typeArguments?.[0] : this.wrapped(module, ref);
        if (wrappedType) return this.nested(module, owner, field, wrappedType, nameNode, seen);
        const name = dottedName(ref.typeName);
        const resolved = name ? this.resolver.resolve(module, name, 'types') : undefined;
        if (resolved?.kind === 'declaration') {
          const decl = resolved.decl;
          if (decl.kind === 'type-alias') return this.nested(resolved.module, owner, field, decl.node.type, nameNode, seen);
          if (decl.kind === 'interface') {
            // `interface Servers { [name: string]: Server }`: the value type is read in the interface's module.
            const value = decl.nodes.map((n) => openIndexValue(n.members)).find((v) => v !== undefined);
            if (!decl.nodes.some((n) => hasOpenIndex(n.members))) return {};
            const inner = value ? this.nested(resolved.module, owner, field, value, nameNode, seen) : {};
            return inner.typeRef !== undefined && !inner.openNamespace ? { openNamespace: true, valueTypeRef: inner.typeRef } : { openNamespace: true };
          }
          return {};
        }
        const simple = name?.at(-1);
        if (simple === 'Record') {
          const key = ref.typeArguments?.[0];
          return key && OPEN_KEYS.has(skipParens(key).kind) ? openWith(ref.typeArguments?.[1]) : {};
        }
        if (simple !== undefined && OPEN_TYPE_NAMES.has(simple)) return { openNamespace: true };
        return {};
      }
      default:
        return {};
    }
  }

  private acceptsAnyKey(config: ConfigClass): boolean {
    const hash = config.qualifiedName.lastIndexOf('#');
    const [file, name] = [config.qualifiedName.slice(0, hash), config.qualifiedName.slice(hash + 1)];
    const module = this.resolver.modules.get(file);
    const decl = module?.types.get(name);
    if (decl?.kind === 'interface') return decl.nodes.some((n) => hasOpenIndex(n.members));
    if (decl?.kind === 'type-alias') {
      const type = skipParens(decl.node.type);
      return ts.isTypeLiteralNode(type) && hasOpenIndex(type.members);
    }
    return false;
  }
}

/** The value type of the first string (or `any`-keyed) index signature among the members. */
function openIndexValue(members: ts.NodeArray<ts.TypeElement>): ts.TypeNode | undefined {
  const index = members.find((m): m is ts.IndexSignatureDeclaration => ts.isIndexSignatureDeclaration(m) && m.parameters[0]?.type !== undefined && OPEN_KEYS.has(m.parameters[0].type.kind));
  return index?.type;
}

/** True for a string (or `any`-keyed) index signature among the members. */
function hasOpenIndex(members: ts.NodeArray<ts.TypeElement>): boolean {
  return members.some((m) => ts.isIndexSignatureDeclaration(m) && m.parameters[0]?.type !== undefined && OPEN_KEYS.has(m.parameters[0].type.kind));
}

/** True when a union type has an `undefined` member (`T | undefined`). */
function unionHasUndefined(node: ts.TypeNode): boolean {
  const type = skipParens(node);
  return ts.isUnionTypeNode(type) && type.types.some((t) => skipParens(t).kind === ts.SyntaxKind.UndefinedKeyword);
}

/** `T | undefined | null` → `T`; a union of several other types → `undefined`. */
function stripNullish(node: ts.TypeNode): ts.TypeNode | undefined {
  const type = skipParens(node);
  if (!ts.isUnionTypeNode(type)) return type;
  const rest = type.types.filter((t) => {
    const inner = skipParens(t);
    return inner.kind !== ts.SyntaxKind.UndefinedKeyword && !(ts.isLiteralTypeNode(inner) && inner.literal.kind === ts.SyntaxKind.NullKeyword);
  });
  return rest.length === 1 ? skipParens(rest[0] as ts.TypeNode) : undefined;
}

/** `'a' | 'b'` → {a, b}; `undefined` when any member is not a string literal type. */
function literalKeys(node: ts.TypeNode | undefined): Set<string> | undefined {
  if (!node) return undefined;
  const type = skipParens(node);
  const members = ts.isUnionTypeNode(type) ? type.types : [type];
  const keys = new Set<string>();
  for (const m of members) {
    const t = skipParens(m);
    if (!ts.isLiteralTypeNode(t) || !ts.isStringLiteral(t.literal)) return undefined;
    keys.add(t.literal.text);
  }
  return keys;
}

/** `Option.String(…)`, `Option.Boolean(…)`, … with `Option` imported from `clipanion`. */
function isClipanionOption(module: ModuleInfo, init: ts.Expression): boolean {
  const e = skipOuter(init);
  if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression) || !ts.isIdentifier(e.expression.expression)) return false;
  const binding = module.imports.get(e.expression.expression.text);
  return binding?.specifier === 'clipanion' && binding.imported === 'Option';
}
