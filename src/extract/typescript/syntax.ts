/** Small helpers over TypeScript syntax nodes: positions, names, modifiers, literal checks and JSDoc. */
import { ts } from 'ts-morph';
import type { DefaultValue, SourceLocation } from '../../model/types.js';
import { joinLines } from '../../shared/strings.js';

/**
 * The range of `node` (leading trivia excluded) as a 1-based, end-exclusive {@link SourceLocation}.
 * TypeScript positions count UTF-16 code units, as the model's columns do.
 */
export function locationOf(file: string, sf: ts.SourceFile, node: ts.Node): SourceLocation {
  const start = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  const end = sf.getLineAndCharacterOfPosition(node.getEnd());
  return { file, line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

/** Unwraps parentheses, `as`, `satisfies`, `!` and type assertions around an expression. */
export function skipOuter(expr: ts.Expression): ts.Expression {
  let e = expr;
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
    else return e;
  }
}

let printer: ts.Printer | undefined;

/**
 * A type annotation's text as written; a multi-line annotation (an inline object type) is
 * printed without comments on one line (`{ port?: number; tls: { cert: string; }; }`).
 * `undefined` for a type the parser had to invent (`a: = 1`).
 */
export function typeText(node: ts.TypeNode, sf: ts.SourceFile): string | undefined {
  const text = node.getText(sf);
  if (text === '') return undefined;
  if (!text.includes('\n')) return text;
  printer ??= ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  return joinLines(printer.printNode(ts.EmitHint.Unspecified, node, sf));
}

/** Unwraps parenthesised types. */
export function skipParens(type: ts.TypeNode): ts.TypeNode {
  let t = type;
  while (ts.isParenthesizedTypeNode(t)) t = t.type;
  return t;
}

/**
 * The name users type for a property: identifiers as written, string and numeric literal names
 * unquoted (`'max-warnings'` → `max-warnings`), a computed name only when it is a string literal.
 * `undefined` for `#private` names and other computed names.
 */
export function propertyName(name: ts.PropertyName | ts.BindingName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) return name.expression.text;
  return undefined;
}

/** True when the node carries the modifier `kind` (`export`, `static`, `private`, …). */
export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
}

/** Dotted form of an entity name or a property-access chain of identifiers (`ns.Options` → `['ns', 'Options']`). */
export function dottedName(node: ts.Node): string[] | undefined {
  if (ts.isIdentifier(node)) return [node.text];
  if (ts.isQualifiedName(node)) {
    const left = dottedName(node.left);
    return left ? [...left, node.right.text] : undefined;
  }
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) {
    const left = dottedName(node.expression);
    return left ? [...left, node.name.text] : undefined;
  }
  if (ts.isExpressionWithTypeArguments(node)) return dottedName(node.expression);
  return undefined;
}

/**
 * True for an expression whose meaning can be compared with documentation: string literals
 * without substitutions, numbers and bigints (optionally negated or `+`), `true`, `false`,
 * `null`, `undefined`, and array/object literals made only of literals (`[]`, `{}`,
 * `['a', 1]`, `{ a: 1 }`), also under `as const` or parentheses. Names, calls, templates with
 * substitutions, `new` and operators are not literals.
 */
export function isLiteral(expr: ts.Expression): boolean {
  const e = skipOuter(expr);
  switch (e.kind) {
    case ts.SyntaxKind.StringLiteral:
    case ts.SyntaxKind.NoSubstitutionTemplateLiteral:
    case ts.SyntaxKind.NumericLiteral:
    case ts.SyntaxKind.BigIntLiteral:
    case ts.SyntaxKind.TrueKeyword:
    case ts.SyntaxKind.FalseKeyword:
    case ts.SyntaxKind.NullKeyword:
      return true;
    case ts.SyntaxKind.Identifier:
      return (e as ts.Identifier).text === 'undefined';
    case ts.SyntaxKind.PrefixUnaryExpression: {
      const p = e as ts.PrefixUnaryExpression;
      return (p.operator === ts.SyntaxKind.MinusToken || p.operator === ts.SyntaxKind.PlusToken) && (ts.isNumericLiteral(p.operand) || ts.isBigIntLiteral(p.operand));
    }
    case ts.SyntaxKind.ArrayLiteralExpression:
      return (e as ts.ArrayLiteralExpression).elements.every((el) => !ts.isSpreadElement(el) && !ts.isOmittedExpression(el) && isLiteral(el));
    case ts.SyntaxKind.ObjectLiteralExpression:
      return (e as ts.ObjectLiteralExpression).properties.every(
        (p) => ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && isLiteral(p.initializer),
      );
    default:
      return false;
  }
}

/** A default as the code writes it: `literal` per {@link isLiteral}, else `expression`, with the source text. */
export function defaultOf(expr: ts.Expression, sf: ts.SourceFile): DefaultValue {
  return { kind: isLiteral(expr) ? 'literal' : 'expression', text: expr.getText(sf) };
}

/** What the JSDoc right before a declaration says. */
export interface DocInfo {
  /** First paragraph of the comment text, tags excluded, lines joined with spaces. */
  summary?: string;
  /** `@default`/`@defaultValue` text, backticks and code fences stripped. */
  defaultText?: string;
  /** `@deprecated`: `true`, or its message. */
  deprecated?: boolean | string;
  /** `@internal`, `@hidden` or `@ignore`. */
  hidden: boolean;
}

const HIDDEN_TAGS = new Set(['internal', 'hidden', 'ignore']);

/**
 * Reads the JSDoc comment closest to `node` (TypeScript attaches every `/** … *\/` block that
 * precedes a declaration; TSDoc semantics use the last one). For a parameter with no comment of
 * its own, the summary falls back to the function's `@param name` text.
 */
export function readDoc(node: ts.Node): DocInfo {
  const all = ts.getJSDocCommentsAndTags(node);
  const own = all.filter((d): d is ts.JSDoc => d.kind === ts.SyntaxKind.JSDoc).at(-1);
  const info: DocInfo = { hidden: false };
  const summary = paragraph(ts.getTextOfJSDocComment(own?.comment));
  if (summary !== undefined) info.summary = summary;
  else if (ts.isParameter(node)) {
    const tag = all.find((d): d is ts.JSDocParameterTag => ts.isJSDocParameterTag(d));
    const text = paragraph(ts.getTextOfJSDocComment(tag?.comment)?.replace(/^\s*-\s*/, ''));
    if (text !== undefined) info.summary = text;
  }
  for (const tag of own?.tags ?? []) {
    const name = tag.tagName.text;
    const text = ts.getTextOfJSDocComment(tag.comment)?.trim() ?? '';
    if ((name === 'default' || name === 'defaultValue') && info.defaultText === undefined && text !== '') info.defaultText = stripCode(text);
    else if (name === 'deprecated') info.deprecated = text === '' ? true : text;
    else if (HIDDEN_TAGS.has(name)) info.hidden = true;
  }
  return info;
}

function paragraph(text: string | undefined): string | undefined {
  const first = text?.trim().split(/\n\s*\n/, 1)[0]?.trim();
  return first ? joinLines(first) : undefined;
}

/** How many backticks `text` has in a row from `from`, stepping by `step` (1 or -1). */
function runLength(text: string, from: number, step: 1 | -1): number {
  let n = 0;
  for (let i = from; i >= 0 && i < text.length && text.charCodeAt(i) === 96; i += step) n++;
  return n;
}

/** `` `8080` `` → `8080`; a fenced block → its body. */
export function stripCode(text: string): string {
  const fence = /^```[^\n]*\n([\s\S]*?)\n?```$/.exec(text);
  if (fence) return (fence[1] ?? '').trim();
  // What /^(`+)([\s\S]*)\1$/ matched (quadratic in a backtick run, #33 s27): the longest run
  // both ends have, up to half the text.
  const k = Math.min(runLength(text, 0, 1), runLength(text, text.length - 1, -1), Math.floor(text.length / 2));
  return k > 0 ? text.slice(k, text.length - k).trim() : text;
}

/**
 * Visits `root` and every node under it in source order (pre-order: a node, then its children
 * as `ts.forEachChild` lists them), as a recursive `forEachChild` walk would, but with an
 * explicit stack: no recursion, so a chain of 10,000 `.option()` calls (20,000 nested nodes)
 * cannot overflow the call stack. `visit` returns `false` to skip a node's children, `'stop'` to
 * end the walk; anything else descends. Never throws of its own.
 */
export function walkTree(root: ts.Node, visit: (node: ts.Node) => boolean | 'stop' | void): void {
  const stack: ts.Node[] = [root];
  const children: ts.Node[] = [];
  while (stack.length > 0) {
    const node = stack.pop() as ts.Node;
    const verdict = visit(node);
    if (verdict === 'stop') return;
    if (verdict === false) continue;
    children.length = 0;
    ts.forEachChild(node, (child) => {
      children.push(child);
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as ts.Node);
  }
}

const sourceFiles = new WeakMap<ts.Node, ts.SourceFile>();

/**
 * The source file a node belongs to, as `node.getSourceFile()` gives it, but remembered along the
 * way up: `getSourceFile()` climbs every parent, so asking it for each of 10,000 links of a call
 * chain (each 2 levels deeper) costs 100 million steps; this costs each node one step overall.
 * @throws Error for a node that belongs to no source file (a synthesized one).
 */
export function sourceFileOf(node: ts.Node): ts.SourceFile {
  const path: ts.Node[] = [];
  let n: ts.Node | undefined = node;
  let found: ts.SourceFile | undefined;
  while (n) {
    if (ts.isSourceFile(n)) {
      found = n;
      break;
    }
    const known = sourceFiles.get(n);
    if (known) {
      found = known;
      break;
    }
    path.push(n);
    n = n.parent;
  }
  if (!found) throw new Error('a syntax node outside any source file');
  for (const p of path) sourceFiles.set(p, found);
  return found;
}

/**
 * One file's syntax tree, as the extractors read it: `ts.createSourceFile` with parent links,
 * the latest syntax, and the script kind of its extension (`.tsx` TSX, `.ts`/`.mts`/`.cts` TS,
 * `.jsx` JSX, anything else JS, which parses JSX too), named `/<file>`. No ts-morph `Project`:
 * its in-memory file system and wrappers kept a second copy of every file for the run
 * (2,000 oclif command files: 916 MB, #33 fresh sweep defect 9), and nothing here needs a
 * program or a checker.
 *
 * @param file project-relative POSIX path
 * @param text the file's source
 * @param parsed trees already parsed in this run: a tree of the same file and text is taken from it, a new one is added
 * @throws RangeError when the parser's recursion overflows (expressions nested too deeply)
 */
export function parseSourceFile(file: string, text: string, parsed?: ParsedFiles): ts.SourceFile {
  const known = parsed?.get(file);
  if (known && known.text === text) return known;
  const sf = ts.createSourceFile(`/${file}`, text, ts.ScriptTarget.Latest, true, sourceScriptKind(file));
  parsed?.set(file, sf);
  return sf;
}

/**
 * Syntax trees shared by the extractors of one run (config types, then CLI flags), by
 * project-relative path: each file is parsed once (the trees are read, never changed). Two sets
 * of 2,000 files' trees were most of a 900 MB peak (#33 fresh sweep defect 9).
 */
export type ParsedFiles = Map<string, ts.SourceFile>;

function sourceScriptKind(file: string): ts.ScriptKind {
  if (/\.tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.[mc]?ts$/.test(file)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(file)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}
