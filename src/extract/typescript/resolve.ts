/** Resolves names across files through import and export declarations, without the type checker. */
import type { Declaration, ImportBinding, ModuleInfo } from './scan.js';
import { resolveSpecifier } from './scan.js';

/** A resolved name: a declaration in a module, or a module namespace (`import * as ns`). */
export type Resolved = { kind: 'declaration'; module: ModuleInfo; decl: Declaration } | { kind: 'namespace'; module: ModuleInfo };

/** Which declaration space a name is looked up in (TypeScript keeps types and values apart). */
export type Space = 'types' | 'values';

/**
 * Follows TypeScript's ES-module name binding over the given files: local declarations, named,
 * default and namespace imports (`import type` included, aliases `import { X as Y }`),
 * `export { X }`, `export { X as Y } from`, `export * from`, `export * as ns from` and
 * `export default X`. Only relative specifiers resolve (see {@link resolveSpecifier}); names from
 * packages stay unresolved. Cycles end in `undefined`.
 */
export class Resolver {
  private readonly files: ReadonlySet<string>;

  constructor(readonly modules: ReadonlyMap<string, ModuleInfo>) {
    this.files = new Set(modules.keys());
  }

  /** The module a relative specifier points to from `from`. */
  moduleFor(from: ModuleInfo, specifier: string): ModuleInfo | undefined {
    const file = resolveSpecifier(from.file, specifier, this.files);
    return file === undefined ? undefined : this.modules.get(file);
  }

  /**
   * A name imported from a relative file that is not in the sources because a build step writes it
   * (a gitignored copy: vitepress's `src/node/shared.ts`, copied from `src/shared/shared.ts` by
   * `scripts/copyShared`, which re-exports `types/shared.d.ts`): the declaration that every other
   * module of the same file name (`shared`, any source extension) exporting the name resolves it
   * to. None when the import is not relative, names a namespace or default, or when those modules
   * give different declarations (or none).
   */
  private fromCopy(module: ModuleInfo, binding: ImportBinding, space: Space, seen: Set<string>): Resolved | undefined {
    const specifier = binding.specifier;
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
    if (binding.imported === '*' || binding.imported === 'default') return undefined;
    const stem = stemOf(specifier.slice(specifier.lastIndexOf('/') + 1));
    if (stem === '' || stem === 'index') return undefined;
    let found: Extract<Resolved, { kind: 'declaration' }> | undefined;
    for (const candidate of this.byStem().get(stem) ?? []) {
      if (candidate === module || !(candidate.exports.has(binding.imported) || candidate.reexports.has(binding.imported))) continue;
      const resolved = this.exported(candidate, binding.imported, space, new Set(seen));
      if (resolved?.kind !== 'declaration') continue;
      if (found && (found.module !== resolved.module || found.decl.name !== resolved.decl.name)) return undefined;
      found = resolved;
    }
    return found;
  }

  private stems: Map<string, ModuleInfo[]> | undefined;

  private byStem(): Map<string, ModuleInfo[]> {
    if (!this.stems) {
      this.stems = new Map();
      for (const m of this.modules.values()) {
        const stem = stemOf(m.file.slice(m.file.lastIndexOf('/') + 1));
        const list = this.stems.get(stem);
        if (list) list.push(m);
        else this.stems.set(stem, [m]);
      }
    }
    return this.stems;
  }

  /** The import binding of `name` in `module`, when `name` is imported (whether or not it resolves). */
  importOf(module: ModuleInfo, name: string): ImportBinding | undefined {
    return module.imports.get(name);
  }

  /** Resolves a dotted name (`Options`, `ns.Options`) as seen from `module`. */
  resolve(module: ModuleInfo, dotted: readonly string[], space: Space): Resolved | undefined {
    const [head, ...rest] = dotted;
    if (head === undefined) return undefined;
    let current = this.local(module, head, rest.length > 0 ? 'values' : space, new Set());
    for (let i = 0; i < rest.length && current; i++) {
      if (current.kind !== 'namespace') return undefined;
      current = this.exported(current.module, rest[i] as string, i === rest.length - 1 ? space : 'values', new Set());
    }
    return current;
  }

  private local(module: ModuleInfo, name: string, space: Space, seen: Set<string>): Resolved | undefined {
    const decl = module[space].get(name);
    if (decl) return { kind: 'declaration', module, decl };
    const binding = module.imports.get(name);
    return binding ? this.binding(module, binding, space, seen) : undefined;
  }

  private binding(module: ModuleInfo, binding: ImportBinding, space: Space, seen: Set<string>): Resolved | undefined {
    const target = this.moduleFor(module, binding.specifier);
    if (!target) return this.fromCopy(module, binding, space, seen);
    if (binding.imported === '*') return { kind: 'namespace', module: target };
    return this.exported(target, binding.imported, space, seen);
  }

  /** Resolves the name `name` that `module` exports. */
  exported(module: ModuleInfo, name: string, space: Space, seen: Set<string>): Resolved | undefined {
    const key = `${module.file}\0${name}\0${space}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const local = module.exports.get(name);
    if (local !== undefined) {
      const found = this.local(module, local, space, seen);
      if (found) return found;
    }
    const re = module.reexports.get(name);
    if (re) return this.binding(module, re, space, seen);
    if (name === 'default') return undefined; // `export *` never re-exports a default
    for (const specifier of module.starExports) {
      const target = this.moduleFor(module, specifier);
      const found = target ? this.exported(target, name, space, seen) : undefined;
      if (found) return found;
    }
    return undefined;
  }
}

/** A file name without its source extension (`shared.d.ts`, `shared.ts`, `shared.js` → `shared`). */
function stemOf(name: string): string {
  return name.replace(/(?:\.d)?\.(?:[cm]?[jt]sx?)$/, '');
}
