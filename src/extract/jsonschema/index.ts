/** Config types declared as JSON Schema (draft-04 to 2020-12): an object schema's `properties` are a config file's keys, as a TypeScript interface generated from it would be. */
import { getNodeValue, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { ConfigClass, InputDiagnostic, ParamSpec, SourceLocation } from '../../model/types.js';
import { jsonNesting } from '../../shared/json.js';
import { InheritedBudget, MAX_INHERITED_FIELDS } from '../inherited-budget.js';

/** A JSON file to read: project-relative POSIX path and its text. */
export interface JsonSchemaSource {
  file: string;
  text: string;
}

/** What {@link extractJsonSchemas} found. */
export interface JsonSchemaExtraction {
  classes: ConfigClass[];
  diagnostics: InputDiagnostic[];
}

/** Files larger than this are not read as schemas (a generated bundle, not a config's schema). */
const MAX_SCHEMA_BYTES = 2_000_000;

/** Files nesting objects and arrays deeper than this are not read (real schemas nest a few dozen levels at most). */
export const MAX_SCHEMA_DEPTH = 200;

/** `allOf` levels a type's fields are read through (real schemas chain a few); deeper members are not read, with a warning. */
export const MAX_ALLOF_DEPTH = 32;

/**
 * Reads JSON Schema files as config types, never fetching anything (`$ref`s to other files or
 * URLs stay unresolved).
 *
 * **Which files.** A JSON file is a schema when its root object has a `$schema` naming
 * json-schema.org, or `type: "object"` with `properties`. Others are skipped silently (a JSON
 * file that happens to sit in a `schema/` folder). One that cannot be read (over 2 MB, nested
 * more than {@link MAX_SCHEMA_DEPTH} levels, not a JSON object) gives a `parse-error` warning
 * when it could have been one: it names `$schema`, its name is `schema.json` or ends in
 * `.schema.json`, `-schema.json` or `_schema.json`, or its text has a `"properties": {` (#33 D9: a deep schema
 * without `$schema` was dropped silently).
 *
 * **Which types.** The root schema, when it is an object with `properties`, and every entry of
 * `definitions` / `$defs` that is one. The type's `name` is its `title` (`StrykerOptions`), else
 * the definition key, else the file name in PascalCase; `qualifiedName` is `<file>#<name>`;
 * `kind` is `json-schema`; `bases` are the `$ref`s of `allOf` members, whose fields come first
 * (each definition's fields computed once; a member whose own `allOf` chain is more than
 * {@link MAX_ALLOF_DEPTH} levels deep is not read, with a `parse-error` warning).
 *
 * **Fields** (origin `config-field`, `owner` the type's name, `location` the property key):
 * `type` from `type` (`integer` → `number`; arrays as `T[]` from `items`; `enum` as a union of
 * literals; `$ref` to a local definition as that definition's name); `default` from `default`
 * (compact JSON, kind `literal`; an empty `{}` on a field whose `$ref` is an object schema is left out, its keys' defaults being the real one); `required` from the parent's `required` list; `description` from
 * `description` (else `title`); `deprecated` from `deprecated: true`; `typeRef` the
 * qualified name of a local definition that is an object schema; `openNamespace` for an object
 * with `additionalProperties`/`patternProperties` and no `properties`.
 *
 * @param sources JSON files (project-relative POSIX paths)
 */
export function extractJsonSchemas(sources: readonly JsonSchemaSource[]): JsonSchemaExtraction {
  const classes: ConfigClass[] = [];
  const diagnostics: InputDiagnostic[] = [];
  // One budget for the run's inherited fields, across files ({@link MAX_INHERITED_FIELDS}; #33 sweep s27 D10).
  const budget = new InheritedBudget();
  for (const source of sources) {
    // Whether the file could be a schema, judged without parsing it (see "Which files").
    const mayBeSchema =
      /"\$schema"\s*:\s*"[^"]*json-schema\.org/.test(source.text) || /(?:^|\/|[-._])schema\.json$/i.test(source.file) || /"properties"\s*:\s*\{/.test(source.text);
    const problem = (at: number, why: string, tail = '; the JSON Schema in it is not read'): void => {
      if (!mayBeSchema) return;
      const line = source.text.slice(0, at).split('\n').length;
      const column = at - source.text.lastIndexOf('\n', at - 1);
      diagnostics.push({
        ruleId: 'parse-error',
        severity: 'warn',
        message: `${source.file}:${line}:${column}: ${why}${tail}`,
        location: { file: source.file, line, column },
      });
    };
    if (source.text.length > MAX_SCHEMA_BYTES) {
      // A generated bundle, not a config's schema, most likely.
      problem(0, `it is ${(source.text.length / 1_000_000).toFixed(1)} MB, over the ${MAX_SCHEMA_BYTES / 1_000_000} MB limit for a schema`);
      continue;
    }
    // The parser and the value reader recurse once per level: bound the nesting first.
    const nesting = jsonNesting(source.text);
    if (nesting.depth > MAX_SCHEMA_DEPTH) {
      problem(nesting.offset, `nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
      continue;
    }
    const errors: ParseError[] = [];
    const root = parseTree(source.text, errors, { allowTrailingComma: true, disallowComments: false });
    if (!root || root.type !== 'object') {
      problem(errors[0]?.offset ?? 0, 'not a JSON object');
      continue;
    }
    // A syntax error (comments and trailing commas are allowed): the parser's recovery would give
    // a half-read schema, and findings against the properties it lost (#33 fresh sweep s20 D10).
    const syntax = errors[0];
    if (syntax) {
      problem(syntax.offset, `not valid JSON (${printParseErrorCode(syntax.error)})`);
      continue;
    }
    const schemaUri = stringValue(child(root, '$schema'));
    const isSchema = (schemaUri !== undefined && /json-schema\.org/.test(schemaUri)) || isObjectSchema(root);
    if (!isSchema) continue;
    const file = new SchemaFile(source, budget);
    classes.push(...file.types(root));
    if (file.tooDeep) {
      const name = file.tooDeep.parent?.children?.[0]?.value;
      const what = typeof name === 'string' ? `definition \`${name}\`` : 'the root schema';
      problem(file.tooDeep.offset, `${what} inherits through \`allOf\` more than ${MAX_ALLOF_DEPTH} levels deep; the fields of the deeper members are not read`, '');
    }
  }
  diagnostics.push(...budget.diagnostics('type'));
  return { classes, diagnostics };
}

/** A schema node's fields, its `allOf` depth, and where the inherited-fields budget cut them (its own or a member's). */
interface Fields {
  fields: ParamSpec[];
  depth: number;
  cut?: NonNullable<ConfigClass['unreadFields']>;
}

/** One schema file's types. */
class SchemaFile {
  private readonly lineStarts: number[] = [0];
  /** Definition pointer (`#/definitions/x`) → its node and name. */
  private readonly definitions = new Map<string, { node: JsonNode; name: string }>();
  /**
   * Type texts of definitions already computed, by definition node and depth: a definition used
   * many times (an `anyOf` of 3,000 `$ref`s to itself, used by 100 properties) is read once per
   * depth, not once per path to it (#33 item 4: over 300 s).
   */
  private readonly definitionTypes = new Map<JsonNode, Map<number, string | undefined>>();
  /** Fields and `allOf` depth per schema node, once computed (see {@link SchemaFile.type}). */
  private readonly fieldMemo = new Map<JsonNode, Fields>();
  /** The first schema node found with `allOf` members past {@link MAX_ALLOF_DEPTH} levels. */
  tooDeep: JsonNode | undefined;
  private rootName = '';
  private readonly definitionNames = new Map<JsonNode, string>();

  constructor(
    private readonly source: JsonSchemaSource,
    private readonly budget: InheritedBudget,
  ) {
    for (let i = 0; i < source.text.length; i++) if (source.text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  types(root: JsonNode): ConfigClass[] {
    for (const container of ['definitions', '$defs']) {
      const defs = child(root, container);
      if (defs?.type !== 'object') continue;
      for (const prop of defs.children ?? []) {
        const [keyNode, value] = prop.children ?? [];
        const key = keyNode?.value;
        if (typeof key !== 'string' || value?.type !== 'object') continue;
        this.definitions.set(`#/${container}/${key}`, { node: value, name: stringValue(child(value, 'title')) ?? key });
        this.definitionNames.set(value, stringValue(child(value, 'title')) ?? key);
      }
    }
    const out: ConfigClass[] = [];
    const rootName = stringValue(child(root, 'title')) ?? schemaFileTypeName(this.source.file);
    this.rootName = rootName;
    if (isObjectSchema(root) || child(root, 'allOf')) {
      const cls = this.type(root, rootName, root);
      if (cls.fields.length > 0) out.push(cls);
    }
    for (const { node, name } of this.definitions.values()) {
      if (!isObjectSchema(node) && !child(node, 'allOf')) continue;
      const cls = this.type(node, name, node.parent?.children?.[0] ?? node);
      if (cls.fields.length > 0) out.push(cls);
    }
    return out;
  }

  /**
   * A type from an object schema: the fields of its `allOf` members (a `$ref` is a base, an inline
   * object adds its properties), then its own `properties`. Fields are computed once per schema
   * node (memoised) and walked with an explicit stack, so a chain of 5,000 definitions each
   * `allOf` the next is linear work (#33 sweep: 1,000 links ran over 120 s, 5,000 overflowed the
   * stack). A member whose own `allOf` chain is already {@link MAX_ALLOF_DEPTH} levels deep is
   * not read (its fields nor those below it): the type keeps its own fields and those of its
   * members within the limit, and a warning names the first definition cut (degrades, linearly).
   */
  private type(node: JsonNode, name: string, at: JsonNode): ConfigClass {
    const bases: string[] = [];
    for (const member of child(node, 'allOf')?.children ?? []) {
      const ref = stringValue(child(member, '$ref'));
      if (ref !== undefined) bases.push(this.definitions.get(ref)?.name ?? ref);
    }
    const { fields, cut } = this.fieldsOf(node);
    return {
      name,
      qualifiedName: `${this.source.file}#${name}`,
      module: this.source.file,
      kind: 'json-schema',
      bases,
      fields: fields.map((f) => (f.owner === name ? f : { ...f, owner: name })),
      location: this.location(at),
      ...(cut ? { unreadFields: cut } : {}),
    };
  }

  /** The schema nodes of an object schema's `allOf` members that docdrift follows (local `$ref`s, inline objects). */
  private allOfTargets(node: JsonNode): JsonNode[] {
    const out: JsonNode[] = [];
    for (const member of child(node, 'allOf')?.children ?? []) {
      const ref = stringValue(child(member, '$ref'));
      const target = ref === undefined ? member : this.definitions.get(ref)?.node;
      if (target) out.push(target);
    }
    return out;
  }

  /** Fields of a schema node with its `allOf` members' first, and its `allOf` depth (see {@link type}). */
  private fieldsOf(start: JsonNode): Fields {
    const done = this.fieldMemo.get(start);
    if (done) return done;
    const onStack = new Set<JsonNode>([start]);
    const stack: Array<{ node: JsonNode; targets: JsonNode[]; next: number }> = [{ node: start, targets: this.allOfTargets(start), next: 0 }];
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      if (top.next < top.targets.length) {
        const target = top.targets[top.next++]!;
        if (!this.fieldMemo.has(target) && !onStack.has(target)) {
          onStack.add(target);
          stack.push({ node: target, targets: this.allOfTargets(target), next: 0 });
        }
        continue;
      }
      stack.pop();
      onStack.delete(top.node);
      const fields: ParamSpec[] = [];
      const index = new Map<string, number>();
      const add = (f: ParamSpec): void => {
        // A later definition of a key replaces an inherited one in place.
        const i = index.get(f.name);
        if (i !== undefined) fields[i] = f;
        else {
          index.set(f.name, fields.length);
          fields.push(f);
        }
      };
      let depth = 0;
      // What the members within the depth limit give, counted against the run's budget of
      // inherited fields: past it the node keeps its own fields only (a member's cut carries on).
      const members: Fields[] = [];
      for (const target of top.targets) {
        // A member in a cycle (on the stack) adds nothing, as a member already seen did before.
        const member = this.fieldMemo.get(target);
        if (!member) continue;
        if (member.depth >= MAX_ALLOF_DEPTH) {
          this.tooDeep ??= top.node;
          depth = Math.max(depth, MAX_ALLOF_DEPTH);
          continue;
        }
        depth = Math.max(depth, member.depth + 1);
        members.push(member);
      }
      let cut: Fields['cut'];
      if (this.budget.take(members.reduce((n, m) => n + m.fields.length, 0))) {
        for (const member of members) for (const f of member.fields) add(f);
        cut = members.find((m) => m.cut)?.cut;
      } else {
        const allOf = child(top.node, 'allOf');
        const refs = (allOf?.children ?? []).map((m) => stringValue(child(m, '$ref')) ?? '{…}').join(', ');
        cut = this.budget.cut(this.location(allOf?.parent?.children?.[0] ?? top.node), `${this.definitionName(top.node)}: allOf [${refs.slice(0, 60)}]`);
      }
      const required = new Set((child(top.node, 'required')?.children ?? []).map((c) => c.value).filter((v): v is string => typeof v === 'string'));
      const owner = this.definitionName(top.node);
      for (const prop of child(top.node, 'properties')?.children ?? []) {
        const [keyNode, value] = prop.children ?? [];
        const key = keyNode?.value;
        if (!keyNode || typeof key !== 'string' || value?.type !== 'object') continue;
        add(this.field(key, keyNode, value, owner, required.has(key)));
      }
      this.fieldMemo.set(top.node, { fields, depth, ...(cut ? { cut } : {}) });
    }
    return this.fieldMemo.get(start)!;
  }

  /** The name a schema node's own fields are owned by: its definition's name, else the file's root type name. */
  private definitionName(node: JsonNode): string {
    return this.definitionNames.get(node) ?? this.rootName;
  }

  private field(key: string, keyNode: JsonNode, schema: JsonNode, owner: string, required: boolean): ParamSpec {
    const spec: ParamSpec = {
      name: key,
      aliases: [],
      required,
      deprecated: child(schema, 'deprecated')?.value === true,
      hidden: false,
      origin: 'config-field',
      owner,
      location: this.location(keyNode),
    };
    const type = this.typeText(schema, 0);
    if (type !== undefined) spec.type = type;
    const dflt = child(schema, 'default');
    const ref = this.refTarget(schema);
    // `default: {}` on an object of a definition whose keys have defaults: the effective default
    // is built from those, so `{}` says nothing a reference would write.
    const emptyObject = dflt?.type === 'object' && (dflt.children ?? []).length === 0 && ref !== undefined && isObjectSchema(ref.node);
    if (emptyObject) spec.required = false;
    else if (dflt) {
      spec.default = { kind: 'literal', text: JSON.stringify(getNodeValue(dflt)) };
      spec.required = false;
    }
    const description = stringValue(child(schema, 'description')) ?? stringValue(child(schema, 'title'));
    if (description !== undefined) spec.description = description.trim();
    if (ref && isObjectSchema(ref.node)) spec.typeRef = `${this.source.file}#${ref.name}`;
    const target = ref?.node ?? schema;
    if (typeOf(target).includes('object') && !child(target, 'properties') && (child(target, 'additionalProperties') || child(target, 'patternProperties'))) spec.openNamespace = true;
    return spec;
  }

  /** The local definition a schema's `$ref` names (also through a one-member `allOf`/`anyOf`/`oneOf`). */
  private refTarget(schema: JsonNode): { node: JsonNode; name: string } | undefined {
    const ref = stringValue(child(schema, '$ref'));
    if (ref !== undefined) return this.definitions.get(ref);
    for (const k of ['allOf', 'anyOf', 'oneOf']) {
      const members = child(schema, k)?.children ?? [];
      if (members.length === 1 && members[0]) return this.refTarget(members[0]);
    }
    return undefined;
  }

  /** A TypeScript-like type text for a schema, as docs write it (`string[]`, `'off' | 'all'`). */
  private typeText(schema: JsonNode, depth: number): string | undefined {
    if (depth > 4) return undefined;
    const ref = stringValue(child(schema, '$ref'));
    if (ref !== undefined) {
      const def = this.definitions.get(ref);
      if (!def) return undefined;
      // An enum or scalar definition reads as its members; an object one by its name.
      if (isObjectSchema(def.node)) return def.name;
      let byDepth = this.definitionTypes.get(def.node);
      if (!byDepth) this.definitionTypes.set(def.node, (byDepth = new Map()));
      if (byDepth.has(depth)) return byDepth.get(depth);
      const text = this.typeText(def.node, depth + 1) ?? def.name;
      byDepth.set(depth, text);
      return text;
    }
    const en = child(schema, 'enum');
    if (en?.type === 'array') return (en.children ?? []).map((c) => this.source.text.slice(c.offset, c.offset + c.length).replace(/^"(.*)"$/, "'$1'")).join(' | ');
    for (const k of ['anyOf', 'oneOf']) {
      const members = child(schema, k)?.children;
      if (members) {
        const parts = members.map((m) => this.typeText(m, depth + 1));
        return parts.every((p): p is string => p !== undefined) ? [...new Set(parts)].join(' | ') : undefined;
      }
    }
    const types = typeOf(schema);
    if (types.length === 0) return undefined;
    return types
      .map((t) => {
        if (t === 'integer') return 'number';
        if (t === 'array') {
          const items = child(schema, 'items');
          const item = items?.type === 'object' ? this.typeText(items, depth + 1) : undefined;
          return item === undefined ? 'unknown[]' : /[| ]/.test(item) ? `Array<${item}>` : `${item}[]`;
        }
        return t;
      })
      .join(' | ');
  }

  private location(node: JsonNode): SourceLocation {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= node.offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.source.file, line: lo + 1, column: node.offset - (this.lineStarts[lo] as number) + 1 };
  }
}

/** A property of an object node. */
function child(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (node?.type !== 'object') return undefined;
  for (const prop of node.children ?? []) if (prop.children?.[0]?.value === key) return prop.children[1];
  return undefined;
}

function stringValue(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' && typeof node.value === 'string' ? node.value : undefined;
}

/** The schema's `type` as a list (`"string"` or `["string", "null"]`). */
function typeOf(schema: JsonNode): string[] {
  const t = child(schema, 'type');
  if (t?.type === 'string') return [String(t.value)];
  if (t?.type === 'array') return (t.children ?? []).map((c) => c.value).filter((v): v is string => typeof v === 'string');
  return [];
}

/** An object schema with named properties. */
function isObjectSchema(schema: JsonNode): boolean {
  const props = child(schema, 'properties');
  return props?.type === 'object' && (typeOf(schema).length === 0 || typeOf(schema).includes('object'));
}

/** A later definition of a key replaces an inherited one in place. */
function addField(fields: ParamSpec[], f: ParamSpec): void {
  const i = fields.findIndex((x) => x.name === f.name);
  if (i >= 0) fields[i] = f;
  else fields.push(f);
}

/**
 * The name a schema file's root type takes when it has no `title`: the file name in PascalCase,
 * without `.json` or `.schema.json` (`schemas/stryker-options.schema.json` → `StrykerOptions`).
 */
export function schemaFileTypeName(file: string): string {
  return pascalCase(file.replace(/^.*\//, '').replace(/(?:\.schema)?\.json$/i, ''));
}

function pascalCase(stem: string): string {
  return stem
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
