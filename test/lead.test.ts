/** Tests the lead-text predicates (src/docs/lead.ts) and the page kinds (src/docs/page-kind.ts). */
import { describe, expect, it } from 'vitest';
import { delegatedDocs, leadText, scopedConfigFile, selectionCue } from '../src/docs/lead.js';
import { historyRanges, isHistoryHeading, isHistoryPage } from '../src/docs/page-kind.js';
import { parseDoc } from '../src/docs/parse.js';

describe('selectionCue', () => {
  it.each([
    ['Options', 'Here is a list of common options. Run `tool --help` for the full list and documentation.', 'common options'],
    ['Configuration', 'The agent reads its config at configs/agent.yaml. Notable keys:', 'Notable keys'],
    ['Inspect rollouts', 'Each row holds the response and a score. The most useful fields are:', 'most useful fields'],
    ['Other flags', '', 'Other flags'],
    ['Usage', 'Here are some of the options:', 'some of the options'],
    ['Configuration', 'Notable Hydra config keys:', 'Notable Hydra config keys'],
    ['Key Fields', '', 'Key Fields'],
    ['Retries', 'The verification and retry controls are:', 'The verification and retry controls are:'],
    ['Configuration', 'The full schema lives in `WrapperConfig` in `app.py`. Highlights:', 'The full schema lives'],
    ['Options', 'See the reference for all available options.', 'See the reference for all available options'],
    // The help output shown as an image: the paragraph is its alt text.
    ['Command line options', 'cz bump --help', 'cz bump --help'],
    // A section of examples shows some flags; it does not promise them all.
    ['Example usage for pip-compile', '', 'Example usage for'],
    ['Examples', '', 'Examples'],
    // A provider page lists the fields of a shared spec it uses.
    ['Relevant SandboxSpec fields', 'The spec is provider-neutral; the provider uses these fields:', 'Relevant SandboxSpec fields'],
  ])('%s / %s → a selection', (heading, lead, cue) => {
    expect(selectionCue(heading, lead)).toBe(cue);
  });

  it.each([
    ['Options', ''],
    ['Command line options', 'The following options are available:'],
    ['Settings', 'The options are:'],
    ['Configuration', 'All options are documented below.'],
    ['Reference', 'Each option has a heading of its own.'],
    ['Settings', 'Each key of the settings file is described below.'],
    ['Options', 'Pass --help to any command to see its options and more.'],
    ['Exampled options', ''],
  ])('%s / %s → no selection', (heading, lead) => {
    expect(selectionCue(heading, lead)).toBeUndefined();
  });
});

describe('scopedConfigFile', () => {
  it('names a shipped file with its folder, in the heading or the lead', () => {
    expect(scopedConfigFile('Sandboxed harness settings (configs/agent.yaml)', '')).toBe('configs/agent.yaml');
    expect(scopedConfigFile('Configuration', 'The preset lives in configs/espresso.yaml. Notable keys:')).toBe('configs/espresso.yaml');
  });
  it('leaves the file users write alone', () => {
    expect(scopedConfigFile('Configuration', 'Add these keys to your pyproject.toml:')).toBeUndefined();
    expect(scopedConfigFile('`.toolrc.json`', '')).toBeUndefined();
  });
});

describe('leadText and delegatedDocs', () => {
  const text = [
    '# Command line', // 1
    '', // 2
    'The `grinder` command line has a few options. Every one of the [configuration](configuration.md)', // 3
    'options can also be specified through the CLI.', // 4
    '', // 5
    '## Options', // 6
    '', // 7
    'Some options can be set in a file.', // 8
    '', // 9
    'Here is a list of common options.', // 10
    '', // 11
    '| Option | Description |', // 12
    '| --- | --- |', // 13
    '| `--watch` | Watch. |', // 14
    '',
  ].join('\n');
  const { doc } = parseDoc('docs/cli.md', text);

  it('the lead is the paragraph right before the first row', () => {
    expect(leadText(doc, 6, 14)).toBe('Here is a list of common options.');
    expect(leadText(doc, 10, 14)).toBe('');
  });
  it('a delegation sentence in the page intro names the linked page', () => {
    expect(delegatedDocs(doc, 6, 14)).toEqual(['docs/configuration.md']);
  });
  it('a link without a delegation sentence is no delegation', () => {
    const { doc: plain } = parseDoc('docs/cli.md', '# CLI\n\nSee the [configuration](configuration.md) page.\n\n## Options\n\n| Option | Description |\n| --- | --- |\n| `--watch` | Watch. |\n');
    expect(delegatedDocs(plain, 5, 9)).toEqual([]);
  });
});

describe('page kinds', () => {
  const page = (file: string, title?: string) => ({ file, headings: title ? [{ depth: 1 as const, text: title, codes: [], slug: '', location: { file, line: 1, column: 1 } }] : [] });
  it.each(['CHANGELOG.md', 'docs/HISTORY.md', 'website/blog/2020-01-01-hello.md', 'docs/support/upgrade.md', 'UPGRADING.md', 'docs/migration-guide.mdx', 'docs/migrating-to-v3.md'])(
    '%s is a history page by its path',
    (file) => expect(isHistoryPage(page(file))).toBe(true),
  );
  it('a page titled as a guide is one too; a command page is not', () => {
    expect(isHistoryPage(page('docs/guides/v2.md', 'Upgrade Guides'))).toBe(true);
    expect(isHistoryPage(page('docs/commands/upgrade-all.md', '`tool upgrade-all`'))).toBe(false);
    expect(isHistoryPage(page('docs/cli.md', 'Command line'))).toBe(false);
  });
  it('history headings open history parts of any page', () => {
    expect(isHistoryHeading('Breaking changes')).toBe(true);
    expect(isHistoryHeading("What's new in 2.0")).toBe(true);
    expect(isHistoryHeading('Changes to the output')).toBe(false);
    const { doc } = parseDoc('README.md', '# tool\n\n## Options\n\ntext\n\n## Breaking changes\n\n- `--old` was removed.\n');
    expect(historyRanges(doc.blocks)).toEqual([[7, 9]]);
  });
});

describe('bounded on long paragraphs', () => {
  const N = 100_000;
  it.each([
    ['selectionCue: a long run of words', () => selectionCue('Options', `the ${'common '.repeat(N / 7)}x`)],
    ['selectionCue: words before a colon', () => selectionCue('Options', `The ${'retry '.repeat(N / 6)}controls are:`)],
    ['scopedConfigFile: a long path without an extension', () => scopedConfigFile('', ` ${'a/'.repeat(N / 2)}b`)],
    ['scopedConfigFile: dots in one segment', () => scopedConfigFile('', ` c/${'a.'.repeat(N / 2)}b`)],
    ['isHistoryHeading: a long heading', () => isHistoryHeading(`migrating from ${'x '.repeat(N / 2)}!`)],
  ])('%s', (_name, fn) => {
    const start = performance.now();
    fn();
    expect(performance.now() - start).toBeLessThan(1500);
  });
});
