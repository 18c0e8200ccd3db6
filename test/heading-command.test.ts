/**
 * Heading → command matching (src/link/heading-command.ts) and the MDX heading-comment blanking
 * (src/docs/mdx-heading-comments.ts), on the heading spellings seen in slidev, NeMo Gym and
 * fastmcp docs. The end-to-end twin is fixtures/layouts/heading-command-words.
 */
import { describe, expect, it } from 'vitest';
import { headingCodeCommand } from '../src/link/heading-command.js';
import { headingMatchText } from '../src/shared/strings.js';
import { blankHeadingComments } from '../src/docs/mdx-heading-comments.js';
import { parseDoc } from '../src/docs/parse.js';

const known = new Set(['slidev', 'slidev build', 'slidev theme', 'gym', 'gym eval run', 'tool.py']);
const isCommand = (n: string): boolean => known.has(n);

describe('headingCodeCommand', () => {
  it.each([
    ['slidev build [entry]', 'slidev build'],
    ['slidev [entry]', 'slidev'],
    ['slidev export [...entry]', 'slidev'],
    ['slidev theme <subcommand>', 'slidev theme'],
    ['gym eval run --no-serve', 'gym eval run'],
    ['$ gym eval run', 'gym eval run'],
    ['gym --help', 'gym'],
    ['gym eval run key=value', 'gym eval run'],
    ['gym eval', 'gym'],
    ['project', undefined],
    ['npm run build', undefined],
  ])('%s → %s', (code, expected) => {
    expect(headingCodeCommand(code, isCommand)).toBe(expected);
  });
});

describe('headingMatchText', () => {
  it.each([
    ['Options {#options}', 'Options'],
    ['Options { #options }', 'Options'],
    ['Options {: #options .wide }', 'Options'],
    ['Run <!-- codespell:ignore -->', 'Run'],
    ['Common   options', 'Common options'],
    ['Use {braces} here', 'Use {braces} here'],
  ])('%s → %s', (text, expected) => {
    expect(headingMatchText(text)).toBe(expected);
  });
});

describe('blankHeadingComments', () => {
  it('blanks a heading comment in place, keeping columns, and leaves code alone', () => {
    const text = '## Run <!-- x -->\n\n```md\n## In <!-- fence -->\n```\n\n## `<!-- y -->` kept\n\nText <!-- not a heading -->\n';
    const out = blankHeadingComments(text);
    expect(out.split('\n')[0]).toBe('## Run           ');
    expect(out.length).toBe(text.length);
    expect(out).toContain('## In <!-- fence -->');
    expect(out).toContain('## `<!-- y -->` kept');
    expect(out).toContain('Text <!-- not a heading -->');
  });
  it('lets an .mdx page with a heading comment parse as MDX', () => {
    const { doc, diagnostics } = parseDoc('docs/a.mdx', '# Page\n\n### `tool run` <!-- codespell:ignore -->\n\n<Note>hi</Note>\n');
    expect(diagnostics).toEqual([]);
    expect(doc.headings.map((h) => h.text)).toEqual(['Page', 'tool run']);
  });
});
