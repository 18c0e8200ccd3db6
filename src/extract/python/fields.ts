/** Turns raw annotated class attributes into ParamSpecs, reading pydantic `Field(…)` and `dataclasses.field(…)` arguments. */
import type { DefaultValue, ParamSpec } from '../../model/types.js';
import type { Resolver } from './resolve.js';
import type { ModuleInfo, RawClass, RawField } from './scan.js';
import type { PyCall, PyValue } from './values.js';
import { pushUnique } from '../../shared/arrays.js';

/** Qualified names of the field-specifier functions whose arguments are read. */
const PYDANTIC_FIELD = new Set(['pydantic.Field', 'pydantic.fields.Field', 'pydantic.v1.Field', 'pydantic.v1.fields.Field']);
const DATACLASS_FIELD = new Set(['dataclasses.field']);
const ALIAS_CHOICES = new Set(['pydantic.AliasChoices', 'pydantic.aliases.AliasChoices']);

type FieldFunction = 'pydantic' | 'dataclass';

/** Names that are never user-settable fields. */
function isSkipped(field: RawField): boolean {
  return field.name.startsWith('_') || field.name === 'model_config' || field.annotationHead?.at(-1) === 'ClassVar';
}

/**
 * A field assigned `field(…, init=False)` or `dataclasses.field(…, init=False)`, read by its
 * syntax (for readers without a resolver at hand): not a parameter of a dataclass's `__init__`,
 * so not of a CLI built from its signature (jsonargparse, `add_class_arguments`).
 */
export function isInitFalseField(field: RawField): boolean {
  const call = field.value?.call;
  return call !== undefined && call.callee?.at(-1) === 'field' && call.kwargs.get('init')?.text === 'False';
}

function external(resolver: Resolver, module: ModuleInfo, dotted: string[] | undefined): string | undefined {
  if (!dotted) return undefined;
  const resolved = resolver.resolve(module, dotted);
  return resolved?.kind === 'external' ? resolved.qualifiedName : undefined;
}

function fieldFunction(resolver: Resolver, module: ModuleInfo, call: PyCall | undefined): FieldFunction | undefined {
  const name = external(resolver, module, call?.callee);
  if (name === undefined) return undefined;
  if (PYDANTIC_FIELD.has(name)) return 'pydantic';
  if (DATACLASS_FIELD.has(name)) return 'dataclass';
  return undefined;
}

function toDefault(value: PyValue): DefaultValue {
  return { kind: value.literal ? 'literal' : 'expression', text: value.text };
}

/**
 * Converts one annotated attribute into a {@link ParamSpec}, or returns `undefined` for
 * attributes that are not fields (`_private`, `model_config`, `ClassVar[…]`).
 *
 * Field semantics follow pydantic's `Field` (https://docs.pydantic.dev/latest/api/fields/#pydantic.fields.Field)
 * and `dataclasses.field` (https://docs.python.org/3/library/dataclasses.html#dataclasses.field):
 * - default: `x: T = v`; `Field(v)` / `Field(default=v)`; `field(default=v)`; a plain value
 *   beats a `Field` inside `Annotated[T, Field(…)]`. `...` (alone, or as the `Field` default) and
 *   a `Field()`/`field()` without default or factory mean required.
 * - `default_factory=f` gives `{ kind: 'factory', text: 'f' }`.
 * - description: `Field(description=…)` when it is a string literal; for `dataclasses.field`,
 *   `metadata={"help"|"description": …}` (the Hugging Face convention); else the attribute docstring.
 * - aliases: `alias` and `validation_alias` string literals, and the strings of `AliasChoices(…)`.
 * - deprecated: `Field(deprecated=True|"msg")`, `deprecated=deprecated("msg")`,
 *   `json_schema_extra={"deprecated": True|"msg"}`, or for `dataclasses.field`
 *   `metadata={"deprecated": True|"msg"}`; else a comment over the field or its run of fields
 *   that starts with "Deprecated" or "Legacy" (its text is the message).
 */
export function toParamSpec(resolver: Resolver, module: ModuleInfo, owner: RawClass, field: RawField): ParamSpec | undefined {
  if (isSkipped(field)) return undefined;
  const kwargs = new Map<string, PyValue>();
  let fieldDefault: PyValue | undefined;
  let factory: PyValue | undefined;
  let notInit = false;
  const absorb = (call: PyCall, kind: FieldFunction): void => {
    for (const [key, value] of call.kwargs) kwargs.set(key, value);
    // `dataclasses.field(init=False)`: the field is not a parameter of the generated `__init__`.
    notInit = kind === 'dataclass' && call.kwargs.get('init')?.text === 'False';
    const def = call.kwargs.get('default') ?? (kind === 'pydantic' ? call.args[0] : undefined);
    if (def) fieldDefault = def;
    const fac = call.kwargs.get('default_factory');
    if (fac) factory = fac;
  };
  for (const call of field.annotatedCalls) {
    const kind = fieldFunction(resolver, module, call);
    if (kind) absorb(call, kind);
  }
  let plainDefault: PyValue | undefined;
  if (field.value) {
    const kind = fieldFunction(resolver, module, field.value.call);
    if (kind && field.value.call) {
      // `x: Annotated[int, Field(3)] = Field(4)`: the assigned Field is the one pydantic uses last.
      fieldDefault = undefined;
      factory = undefined;
      absorb(field.value.call, kind);
    } else {
      plainDefault = field.value;
    }
  }

  // `field(init=False)`: not a parameter of the generated `__init__` (dataclasses.fields() lists it
  // with `init` false; HfArgumentParser and similar CLI builders skip it), so no user can set it.
  if (notInit) return undefined;
  const chosen = plainDefault ?? fieldDefault;
  let defaultValue: DefaultValue | undefined;
  if (chosen && !chosen.ellipsis) defaultValue = toDefault(chosen);
  else if (factory && !chosen) defaultValue = { kind: 'factory', text: factory.text };

  const aliases: string[] = [];
  for (const key of ['alias', 'validation_alias']) {
    const value = kwargs.get(key);
    if (!value) continue;
    const names = value.str !== undefined ? [value.str] : aliasChoices(resolver, module, value);
    for (const alias of names) if (alias !== field.name) pushUnique(aliases, alias);
  }
  const description = kwargs.get('description')?.str ?? metadataDescription(kwargs.get('metadata')) ?? field.docstring;

  // Keys in the model's order, so golden files and debug output read naturally.
  return {
    name: field.name,
    aliases,
    ...(field.annotation !== '' ? { type: field.annotation } : {}),
    ...(defaultValue ? { default: defaultValue } : {}),
    required: defaultValue === undefined,
    ...(description !== undefined ? { description } : {}),
    deprecated:
      deprecation(kwargs.get('deprecated')) ??
      deprecationInExtra(kwargs.get('json_schema_extra')) ??
      deprecationInExtra(kwargs.get('metadata')) ??
      (field.leadingComment !== undefined && DEPRECATED_COMMENT_RE.test(field.leadingComment) ? field.leadingComment : false),
    hidden: false,
    origin: 'config-field',
    owner: owner.name,
    location: field.location,
  };
}

function metadataDescription(metadata: PyValue | undefined): string | undefined {
  for (const [key, value] of metadata?.dict ?? []) {
    if ((key.str === 'help' || key.str === 'description') && value.str !== undefined) return value.str;
  }
  return undefined;
}

function aliasChoices(resolver: Resolver, module: ModuleInfo, value: PyValue): string[] {
  const name = external(resolver, module, value.call?.callee);
  if (!value.call || name === undefined || !ALIAS_CHOICES.has(name)) return [];
  return value.call.args.flatMap((arg) => (arg.str !== undefined ? [arg.str] : []));
}

/**
 * A comment over a field, or over the run of fields it belongs to, that says they are deprecated
 * (`# Deprecated: kept working for backward compatibility`, `# DEPRECATED`, `# Legacy fields, use
 * source`): what a project writes when pydantic's `deprecated=` would warn its users.
 */
const DEPRECATED_COMMENT_RE = /^\W{0,3}(?:deprecated|legacy)\b/i;

/** `True`/`False`, a message string, or `deprecated("msg")` (typing_extensions / warnings). */
function deprecation(value: PyValue | undefined): boolean | string | undefined {
  if (!value) return undefined;
  if (value.bool !== undefined) return value.bool;
  if (value.str !== undefined) return value.str;
  const message = value.call?.callee?.at(-1) === 'deprecated' ? value.call.args[0]?.str : undefined;
  return message ?? undefined;
}

function deprecationInExtra(extra: PyValue | undefined): boolean | string | undefined {
  for (const [key, value] of extra?.dict ?? []) if (key.str === 'deprecated') return deprecation(value);
  return undefined;
}
