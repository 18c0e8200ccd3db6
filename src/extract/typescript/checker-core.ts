/**
 * What TypeScript's type checker says about a type alias, in a form that crosses threads: the
 * part of {@link AliasChecker} (checked.ts) that runs in the checker's worker thread
 * (checker-worker.ts), or in the calling thread where no compiled worker exists (vitest).
 * Nothing is executed; the checker only evaluates types.
 */
import { Project, ts } from 'ts-morph';

/** Most properties one alias may have for the checker's answer to be used: past it the alias is read by its syntax. */
export const MAX_CHECKED_PROPERTIES = 2000;

/** One property of a checked alias's type, as the checker thread sends it. */
export interface WireProperty {
  /** The property's name as TypeScript gives it (after key remapping). */
  name: string;
  /** `?` on the property (or `Partial`, a `?` mapped type): not required. */
  optional: boolean;
  /** Its type as the checker prints it (`number`, `string | undefined`), relative to the alias. */
  type: string;
  /** True when its type is an object type (not a primitive, literal, array, tuple or function): sub-keys are open. */
  objectType: boolean;
  /** Where its name is declared, when in a project file: project-relative path and the name node's start and end offsets. */
  declaration?: { file: string; start: number; end: number };
}

/** The checker's answer for one alias: its properties, none (`undefined`: no object type), or that it has more than {@link MAX_CHECKED_PROPERTIES}. */
export type WireAnswer = { properties: WireProperty[] } | { properties: undefined } | { tooMany: number };

/** The in-memory project the checker reads: every file under `/<path>`, with TypeScript's standard library; nothing else is read. */
export function checkerProject(texts: Iterable<readonly [file: string, text: string]>): Project {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      // ES2023's declarations, not the DOM's (the default): the DOM's are most of the standard
      // library's 1.2 s (vite's 16 aliases: 2.4 -> 1.5 s); a property typed `HTMLElement` prints as `any`.
      lib: ['lib.es2023.d.ts'],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowJs: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
  });
  const fs = project.getFileSystem();
  for (const [file, text] of texts) fs.writeFileSync(`/${file}`, text);
  return project;
}

/**
 * The properties of type alias `name` declared in `file` (project-relative), as the checker of
 * `project` ({@link checkerProject}) gives them. `texts` (project-relative path → text) are
 * written into the project first, replacing those files' earlier texts (the statements the
 * aliases of the run may depend on, the rest blanked: checker-texts.ts); files they import that
 * were never given are read whole from the project's file system. `{ properties: undefined }` when the alias is
 * missing or its type has no properties (a primitive, `any`, a union of unrelated shapes, a type
 * from a package). May throw what the checker throws.
 */
export function readAliasProperties(project: Project, file: string, name: string, texts?: ReadonlyArray<readonly [file: string, text: string]>): WireAnswer {
  const path = `/${file}`;
  // The files whose statements this alias may depend on grew: given anew (one program for the
  // run; what they import that is not given is read whole from the project's file system).
  for (const [f, text] of texts ?? []) project.createSourceFile(`/${f}`, text, { overwrite: true });
  const sf = project.getSourceFile(path) ?? project.addSourceFileAtPathIfExists(path);
  if (!sf) return { properties: undefined };
  project.resolveSourceFileDependencies();
  const alias = sf.getTypeAlias(name);
  if (!alias) return { properties: undefined };
  const type = alias.getType();
  if (type.isAny() || type.isUnknown() || !type.isObject() && !type.isIntersection()) return { properties: undefined };
  const symbols = type.getProperties();
  if (symbols.length > MAX_CHECKED_PROPERTIES) return { tooMany: symbols.length };
  const out: WireProperty[] = [];
  for (const symbol of symbols) {
    const propertyType = symbol.getTypeAtLocation(alias);
    const nonNullable = propertyType.getNonNullableType();
    const objectType = nonNullable.isObject() && !nonNullable.isArray() && !nonNullable.isTuple() && nonNullable.getCallSignatures().length === 0;
    const declared = symbol.getDeclarations()[0]?.compilerNode;
    const declFile = declared?.getSourceFile();
    const nameNode =
      declared && (ts.isPropertySignature(declared) || ts.isPropertyDeclaration(declared) || ts.isPropertyAssignment(declared) || ts.isShorthandPropertyAssignment(declared)) ? declared.name : undefined;
    out.push({
      name: symbol.getName(),
      optional: symbol.hasFlags(ts.SymbolFlags.Optional),
      // `seed?: number` prints as `number | undefined`: the `?` already says it may be left out.
      type: (symbol.hasFlags(ts.SymbolFlags.Optional) ? nonNullable : propertyType).getText(alias, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope),
      objectType,
      ...(nameNode && declFile ? { declaration: { file: declFile.fileName.slice(1), start: nameNode.getStart(declFile), end: nameNode.end } } : {}),
    });
  }
  return { properties: out.length > 0 ? out : undefined };
}
