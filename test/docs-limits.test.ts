/** Tests the document limits (src/docs/limits.ts) and that parseDoc skips, with a warning, a document over them. */

import { describe, expect, test } from 'vitest';
import { documentOverLimits, MAX_DOCUMENT_LENGTH, MAX_NESTING } from '../src/docs/limits.js';
import { parseDoc } from '../src/docs/parse.js';

describe('documentOverLimits', () => {
  test('ordinary documents, lists a few levels deep and indented code are within the limits', () => {
    expect(documentOverLimits('# t\n\n- a\n  - b\n    - c\n\n> quote\n> - item\n\n```\n        deep code\n```\n')).toBeUndefined();
    expect(documentOverLimits('- '.repeat(MAX_NESTING) + 'x')).toBeUndefined();
    expect(documentOverLimits('x'.repeat(MAX_DOCUMENT_LENGTH))).toBeUndefined();
  });

  test('too long, too many containers on one line, too deep an indentation: the reason and the line', () => {
    expect(documentOverLimits('x'.repeat(MAX_DOCUMENT_LENGTH + 1))?.reason).toMatch(/it is 1\.0 MB, over the 1 MB limit/);
    expect(documentOverLimits('# a\n' + '- '.repeat(MAX_NESTING + 1) + 'x')).toEqual({ reason: `line 2 is nested more than ${MAX_NESTING} levels deep`, line: 2 });
    expect(documentOverLimits('a\n\nb\n' + '> '.repeat(5000))?.line).toBe(4);
    expect(documentOverLimits('1. '.repeat(200))?.line).toBe(1);
    expect(documentOverLimits('x\n' + ' '.repeat(MAX_NESTING * 2 + 1) + '- deep')?.line).toBe(2);
  });
});

describe('parseDoc over the limits', () => {
  test('5,000 nested list levels on one line: skipped with a warning at that line, quickly', () => {
    const start = performance.now();
    const { doc, diagnostics } = parseDoc('a.md', '# `tool`\n\n' + '- '.repeat(5000) + 'item\n');
    expect(performance.now() - start).toBeLessThan(2000);
    expect(doc.headings).toEqual([]);
    expect(diagnostics).toEqual([
      {
        ruleId: 'parse-error',
        severity: 'warn',
        message: 'Not read: line 3 is nested more than 100 levels deep, which the Markdown parser cannot handle in bounded time',
        location: { file: 'a.md', line: 3, column: 1 },
      },
    ]);
  });
});
