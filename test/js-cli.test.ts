/**
 * JavaScript/TypeScript CLI kinds docdrift used to read only partly (issue #30), on invented
 * fixture projects under `fixtures/js-cli/<kind>/`: each asserts what is checked now, and that
 * what cannot be read is said once instead of reported row by row.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyToTemp, lintTwin, removeTempDirs } from './helpers.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/js-cli');

afterEach(removeTempDirs);

describe('commander sub-command that hands its flags on (.allowUnknownOption())', () => {
  it('leaves its flags unknown with one note, and still checks the sibling sub-command', async () => {
    const { result, messages } = await lintTwin(path.join(FIXTURES, 'commander-delegate'));
    const gen = result.model.commands.find((c) => c.name === 'packgen gen');
    expect(gen).toMatchObject({ paramsKnown: false, passesUnknownFlags: true });
    // No per-row or per-example error for the plugin's flags…
    expect(messages.filter((m) => (m.data as { command?: string } | undefined)?.command === 'packgen gen')).toEqual([]);
    // …but one note names the command and why.
    expect(result.notes.filter((n) => n.includes('`packgen gen`') && n.includes('allowUnknownOption'))).toHaveLength(1);
    // The sibling is checked as before: its stale row is reported.
    expect(messages.map((m) => [m.ruleId, (m.data as { name?: string }).name])).toEqual([['reference-param-unknown', 'sourcemap']]);
  });
});

describe('two bins running one commander program (`.name(\'packgen\')`)', () => {
  // The commander-delegate fixture with a second bin for the same file, listed first or last.
  const withBins = (bins: string[]): string => {
    const dir = copyToTemp(path.join(FIXTURES, 'commander-delegate'));
    const bin = Object.fromEntries(bins.map((name) => [name, 'dist/cli.js']));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'packgen', version: '1.0.0', type: 'module', bin }));
    return dir;
  };
  const commands = (result: Awaited<ReturnType<typeof lintTwin>>['result']): string[] => result.model.commands.map((c) => [c.name, ...c.aliases].join(' / '));

  it('are one command named by the program, whichever bin package.json lists first', async () => {
    const packgenFirst = await lintTwin(withBins(['packgen', 'pg']));
    expect(commands(packgenFirst.result)).toEqual(['packgen / pg', 'packgen build / pg build', 'packgen gen / pg gen']);
    expect(packgenFirst.messages.map((m) => [m.ruleId, (m.data as { name?: string }).name])).toEqual([['reference-param-unknown', 'sourcemap']]);
    // The other bin first (plain-object keys included): the same commands and findings, not "found 1 command but the parameters of none".
    for (const other of ['pg', '__proto__', 'toString']) {
      const { result, messages } = await lintTwin(withBins([other, 'packgen']));
      expect(commands(result)).toEqual(commands(packgenFirst.result).map((c) => c.replaceAll('pg', other)));
      expect(messages).toEqual(packgenFirst.messages);
      expect(result.model.commands.find((c) => c.name === 'packgen')).toMatchObject({ paramsKnown: true });
    }
  });
});

describe('commander program whose sub-commands are made at run time', () => {
  it('does not judge their documented flags against the program, and says so once', async () => {
    const { result, messages } = await lintTwin(path.join(FIXTURES, 'commander-runtime-commands'));
    const program = result.model.commands.find((c) => c.name === 'appkit');
    expect(program).toMatchObject({ paramsKnown: false, dynamicSubcommands: true });
    expect(messages).toEqual([]);
    expect(result.notes.filter((n) => n.includes('`appkit`') && n.includes('sub-commands at run time'))).toHaveLength(1);
  });
});

describe('config type extending an interface of a declaration file, through a file a build step copies', () => {
  it('reads the base fields (types/common.d.ts through src/common/common.ts for the gitignored src/node/common.ts)', async () => {
    const { result, messages } = await lintTwin(path.join(FIXTURES, 'dts-base-copy'));
    const site = result.model.commands.find((c) => c.name === 'site.config.ts');
    expect(site?.params.map((p) => p.name)).toEqual(['lang', 'title', 'srcDir', 'outDir']);
    expect(messages).toEqual([]);
    // The declaration file's other type is no config type of the project.
    expect([...result.model.classes.keys()].filter((q) => q.startsWith('types/'))).toEqual(['types/common.d.ts#LocaleSettings']);
  });
});

describe('commander option built by a helper of a sibling workspace package', () => {
  it('follows @demo/options/output to packages/options/src/output.ts', async () => {
    const { result, messages } = await lintTwin(path.join(FIXTURES, 'commander-workspace-helper'));
    const cli = result.model.commands.find((c) => c.name === 'democli');
    expect(cli?.params.map((p) => [p.name, p.aliases, p.default?.text])).toEqual([
      ['verbose', [], undefined],
      ['out-dir', ['o'], "'out'"],
    ]);
    expect(messages).toEqual([]);
  });
});
