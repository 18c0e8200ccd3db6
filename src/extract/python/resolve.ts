/** Resolves names used in a module to repository classes, functions and modules, or to external qualified names, through imports. */
import type { Binding, ModuleInfo, RawClass, RawFunction } from './scan.js';

/** What a dotted name refers to. */
export type Resolved =
  | { kind: 'class'; cls: RawClass }
  | { kind: 'function'; module: ModuleInfo; fn: RawFunction }
  | { kind: 'module'; module: ModuleInfo }
  /** Something outside the repository, as a qualified name (`pydantic.BaseModel`). */
  | { kind: 'external'; qualifiedName: string };

/** Re-export chains longer than this are treated as cycles. */
const MAX_DEPTH = 24;

function bindingTarget(binding: Binding): string {
  return binding.kind === 'module' ? binding.target : `${binding.module}.${binding.name}`;
}

/**
 * Name resolution over every scanned module. Results of qualified lookups are cached, so resolving
 * N references costs O(N) lookups plus the length of each re-export chain.
 */
export class Resolver {
  private readonly qualifiedCache = new Map<string, Resolved | undefined>();

  /** @param modules Scanned modules by dotted name. */
  constructor(private readonly modules: Map<string, ModuleInfo>) {}

  /** The module with this dotted name, if the repository has it. */
  module(name: string): ModuleInfo | undefined {
    return this.modules.get(name);
  }

  /**
   * Resolves a dotted name as written in `module` (`pd.BaseModel`, `Base`, `cfg.Config`).
   * `local` holds bindings that shadow module-level ones (imports inside a function body);
   * `scope` is the class whose body the name appears in (for bases of nested classes).
   */
  resolve(module: ModuleInfo, segments: readonly string[], local?: Map<string, Binding>, scope?: RawClass, depth = 0): Resolved | undefined {
    if (depth > MAX_DEPTH || segments.length === 0) return undefined;
    const [head, ...rest] = segments as [string, ...string[]];
    const localBinding = local?.get(head);
    if (localBinding) return this.resolveQualified(`${bindingTarget(localBinding)}${suffix(rest)}`, depth + 1);
    for (let outer = scope; outer; outer = outer.outer) {
      const nested = outer.nested.get(head);
      if (nested) return classMember(nested, rest);
    }
    const cls = module.classes.get(head);
    if (cls) return classMember(cls, rest);
    const fn = module.functions.get(head);
    if (fn) return rest.length === 0 ? { kind: 'function', module, fn } : undefined;
    const binding = module.bindings.get(head);
    if (binding) return this.resolveQualified(`${bindingTarget(binding)}${suffix(rest)}`, depth + 1);
    const alias = module.aliases.get(head);
    if (alias) return this.resolve(module, [...alias, ...rest], undefined, undefined, depth + 1);
    let external: Resolved | undefined;
    for (const star of module.starImports) {
      const target = this.modules.get(star);
      if (target) {
        const found = target === module ? undefined : this.resolve(target, segments, undefined, undefined, depth + 1);
        if (found) return found;
      } else {
        external ??= { kind: 'external', qualifiedName: `${star}.${segments.join('.')}` };
      }
    }
    return external;
  }

  /**
   * Resolves an absolute dotted name (`pkg.base.Base`): the longest prefix that is a repository
   * module, then the rest inside it (following its imports, so re-exports from `__init__.py`
   * work). A name with no repository prefix is external.
   */
  resolveQualified(name: string, depth = 0): Resolved | undefined {
    if (this.qualifiedCache.has(name)) return this.qualifiedCache.get(name);
    this.qualifiedCache.set(name, undefined); // a cycle resolves to nothing
    const result = this.lookupQualified(name, depth);
    this.qualifiedCache.set(name, result);
    return result;
  }

  private lookupQualified(name: string, depth: number): Resolved | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const segments = name.split('.');
    for (let i = segments.length; i > 0; i--) {
      const module = this.modules.get(segments.slice(0, i).join('.'));
      if (!module) continue;
      if (i === segments.length) return { kind: 'module', module };
      return this.resolve(module, segments.slice(i), undefined, undefined, depth + 1);
    }
    return { kind: 'external', qualifiedName: name };
  }
}

function suffix(rest: string[]): string {
  return rest.length === 0 ? '' : `.${rest.join('.')}`;
}

function classMember(cls: RawClass, rest: string[]): Resolved | undefined {
  let current = cls;
  for (const name of rest) {
    const nested = current.nested.get(name);
    if (!nested) return undefined;
    current = nested;
  }
  return { kind: 'class', cls: current };
}
