/** Tests GitHub-style heading slugs and fragment resolution, and link target resolution. */

import { describe, expect, test } from 'vitest';
import { resolveLink } from '../src/docs/links.js';
import { parseDoc } from '../src/docs/parse.js';
import { createHeadingSlugger, findHeadingBySlug, slugOf } from '../src/docs/slug.js';

describe('slugs (GitHub heading anchors)', () => {
  test('punctuation dropped, spaces to dashes, case folded, duplicates numbered per slugger', () => {
    const slug = createHeadingSlugger();
    expect(slug('ng_collect_rollouts / nemo_gym_collect_rollouts')).toBe('ng_collect_rollouts--nemo_gym_collect_rollouts');
    expect(slug('What’s new in v2.0?')).toBe('whats-new-in-v20');
    expect(slug('Options')).toBe('options');
    expect(slug('Options')).toBe('options-1');
    expect(slug('Options')).toBe('options-2');
    expect(createHeadingSlugger()('Options')).toBe('options');
    expect(slugOf('Options')).toBe('options');
  });

  test('findHeadingBySlug: exact, case-insensitive, user-content- prefix, no match', () => {
    const { doc } = parseDoc('a.md', '# Setup\n\n## `ng_run`\n\n## Setup\n');
    expect(findHeadingBySlug(doc, 'setup-1')?.location.line).toBe(5);
    expect(findHeadingBySlug(doc, 'NG_RUN')?.text).toBe('ng_run');
    expect(findHeadingBySlug(doc, 'user-content-setup')?.location.line).toBe(1);
    expect(findHeadingBySlug(doc, 'L10')).toBeUndefined();
  });
});

describe('resolveLink', () => {
  test.each([
    ['#usage', { targetFile: 'docs/cli/run.md', fragment: 'usage' }],
    ['./other.md', { targetFile: 'docs/cli/other.md' }],
    ['other.md#a%20b', { targetFile: 'docs/cli/other.md', fragment: 'a b' }],
    ['../../README.md?plain=1#install', { targetFile: 'README.md', fragment: 'install' }],
    ['../reference/', {}],
    ['../../../outside.md', {}],
    ['/docs/guide.md#x', { targetFile: 'docs/guide.md', fragment: 'x' }],
    ['/docs/guide', {}],
    ['https://hydra.cc/docs/advanced/override_grammar/basic/#grammar', { fragment: 'grammar' }],
    ['mailto:team@example.com', {}],
    ['//cdn.example.com/x.md', {}],
    ['', {}],
    ['%E0%A4%A.md', { targetFile: 'docs/cli/%E0%A4%A.md' }],
  ])('%j', (url, expected) => {
    expect(resolveLink('docs/cli/run.md', url)).toEqual(expected);
  });

  test('a link to the page itself is normalised and checked like any target (property test counterexample)', () => {
    expect(resolveLink('../.', '?q/x#y')).toEqual({ fragment: 'y' });
    expect(resolveLink('docs/./a.md', '#top')).toEqual({ targetFile: 'docs/a.md', fragment: 'top' });
  });
});
