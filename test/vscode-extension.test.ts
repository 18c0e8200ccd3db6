/**
 * The VS Code extension in editors/vscode (issue #36 item 3): its manifest contributes what its
 * README and the root README say (settings, activation events, a `main` the bundle step writes),
 * and src/server-options.ts starts the server the way the README says for each setting. The
 * extension cannot run here (no VS Code); its packaging (`npm run vsix`) is checked by .ci/run,
 * not by this file, which reads sources only (no install, no build).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILES } from '../src/config/load.js';
import {
  DEFAULT_SETTINGS,
  DOCUMENT_LANGUAGES,
  RESTART_SETTINGS,
  SERVER_ARGS,
  documentSelector,
  initializationOptions,
  serverCommand,
  type DocdriftSettings,
  type Host,
} from '../editors/vscode/src/server-options.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXT = path.join(ROOT, 'editors/vscode');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

interface Setting {
  type: string;
  default: unknown;
  enum?: string[];
}
const manifest = JSON.parse(read('editors/vscode/package.json')) as {
  name: string;
  publisher: string;
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  capabilities?: { untrustedWorkspaces?: { supported: boolean | 'limited' } };
  contributes: { configuration: { properties: Record<string, Setting> }; commands: Array<{ command: string }> };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  dependencies?: Record<string, string>;
};
const settingsOf = (over: Partial<DocdriftSettings>): DocdriftSettings => ({ ...DEFAULT_SETTINGS, ...over });
const posix = (files: string[]): Host => ({ platform: 'linux', exists: (f) => files.includes(f) });
const windows = (files: string[]): Host => ({ platform: 'win32', exists: (f) => files.includes(f) });

describe('the VS Code extension manifest (editors/vscode/package.json)', () => {
  it('runs only in trusted workspaces: the program it starts is the workspace\'s to choose (s30 sweep2 observation)', () => {
    expect(manifest.capabilities?.untrustedWorkspaces?.supported).toBe(false);
  });
  it('contributes the four settings the READMEs document, with the defaults server-options.ts assumes', () => {
    const props = manifest.contributes.configuration.properties;
    expect(Object.keys(props).sort()).toEqual(['docdrift.configPath', 'docdrift.enable', 'docdrift.serverPath', 'docdrift.trace.server']);
    expect(props['docdrift.enable']).toMatchObject({ type: 'boolean', default: DEFAULT_SETTINGS.enable });
    expect(props['docdrift.configPath']).toMatchObject({ type: 'string', default: DEFAULT_SETTINGS.configPath });
    expect(props['docdrift.serverPath']).toMatchObject({ type: 'string', default: DEFAULT_SETTINGS.serverPath });
    // vscode-languageclient reads `<client id>.trace.server` with these values.
    expect(props['docdrift.trace.server']).toMatchObject({ type: 'string', default: 'off', enum: ['off', 'messages', 'verbose'] });
    expect([...RESTART_SETTINGS].sort()).toEqual(['docdrift.configPath', 'docdrift.enable', 'docdrift.serverPath']);
    const extensionSource = read('editors/vscode/src/extension.ts');
    expect(extensionSource).toContain("new LanguageClient('docdrift'");
    for (const command of manifest.contributes.commands) expect(extensionSource).toContain(`'${command.command}'`);
    for (const readme of ['README.md', 'editors/vscode/README.md']) {
      const text = read(readme);
      for (const key of Object.keys(props)) expect(text, `${readme} names ${key}`).toContain(`\`${key}\``);
    }
  });

  it('activates on Markdown and MDX and in a workspace holding any config file the server reads', () => {
    expect(manifest.activationEvents).toEqual(expect.arrayContaining(['onLanguage:markdown', 'onLanguage:mdx']));
    const contains = manifest.activationEvents.filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
    expect(contains.sort()).toEqual([...CONFIG_FILES].sort());
    // The documents sent to the server: the docs and the code languages whose edits make docs stale.
    expect(DOCUMENT_LANGUAGES).toEqual(expect.arrayContaining(['markdown', 'mdx', 'python', 'typescript', 'javascript']));
    for (const language of DOCUMENT_LANGUAGES) expect(documentSelector()).toContainEqual({ scheme: 'file', language });
    expect(documentSelector()).toContainEqual({ scheme: 'file', pattern: '**/*.mdx' });
  });

  it('`main` is the file the bundle step writes; vsce packages it without node_modules; the .vsix is not in the npm package', () => {
    expect(manifest.main).toBe('./dist/extension.js');
    expect(manifest.scripts.bundle).toContain('esbuild src/extension.ts --bundle');
    expect(manifest.scripts.bundle).toContain('--external:vscode');
    expect(manifest.scripts.bundle).toContain(`--outfile=${manifest.main.replace(/^\.\//, '')}`);
    // vsce runs vscode:prepublish before packaging.
    expect(manifest.scripts['vscode:prepublish']).toContain('npm run bundle');
    expect(manifest.scripts.package).toBe('vsce package --no-dependencies -o dist/docdrift.vsix');
    // Everything is bundled: nothing to install at run time.
    expect(manifest.dependencies).toBeUndefined();
    const ignored = read('editors/vscode/.vscodeignore').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['src/**', 'node_modules/**', 'dist/*.vsix']));
    expect(ignored.some((l) => l.startsWith('dist/') && !l.endsWith('.vsix'))).toBe(false);
    const root = JSON.parse(read('package.json')) as { scripts: Record<string, string>; files: string[] };
    expect(root.scripts.vsix).toBe('npm ci --prefix editors/vscode --no-audit --no-fund && npm run --prefix editors/vscode package');
    expect(root.files.some((f) => f.startsWith('editors'))).toBe(false);
    expect(read('.ci/run')).toContain('npm run vsix');
    // vsce wants a license file; it is docdrift's.
    expect(read('editors/vscode/LICENSE')).toBe(read('LICENSE'));
  });

  it('its lockfile pins what package.json asks, and @types/vscode is no newer than engines.vscode (vsce refuses that)', () => {
    const lock = JSON.parse(read('editors/vscode/package-lock.json')) as { name: string; packages: Record<string, { version: string; engines?: Record<string, string> }> };
    expect(lock.name).toBe(manifest.name);
    for (const [name, version] of Object.entries(manifest.devDependencies)) expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
    const floor = manifest.engines.vscode.replace(/^\^/, '');
    expect(manifest.devDependencies['@types/vscode']).toBe(floor);
    // The client library's own floor is the extension's.
    expect(lock.packages['node_modules/vscode-languageclient']!.engines!.vscode).toBe(manifest.engines.vscode);
    // vsce 3.x runs on Node 20 (4.x needs Node 22).
    expect(lock.packages['node_modules/@vscode/vsce']!.engines!.node).toBe('>= 20');
  });

  it('server-options.ts does not import vscode (so that these tests run it); extension.ts does, and uses it', () => {
    const options = read('editors/vscode/src/server-options.ts');
    expect(options).not.toMatch(/from ['"]vscode/);
    const extension = read('editors/vscode/src/extension.ts');
    expect(extension).toMatch(/from 'vscode-languageclient\/node'/);
    expect(extension).toContain("from './server-options.js'");
    expect(path.relative(ROOT, EXT)).toBe(path.join('editors', 'vscode'));
  });
});

describe('serverCommand: how the extension starts docdrift lsp', () => {
  const folder = '/work/project';
  const workspaceBin = '/work/project/node_modules/.bin/docdrift';

  it('default: the workspace\'s node_modules/.bin/docdrift, run in the folder', () => {
    expect(serverCommand(DEFAULT_SETTINGS, folder, posix([workspaceBin]))).toEqual({ command: workspaceBin, args: ['lsp', '--stdio'], options: { cwd: folder }, source: 'workspace' });
  });

  it('default without a local install (or without a folder): npx --yes docdrift lsp --stdio', () => {
    expect(serverCommand(DEFAULT_SETTINGS, folder, posix([]))).toEqual({ command: 'npx', args: ['--yes', 'docdrift', 'lsp', '--stdio'], options: { cwd: folder }, source: 'npx' });
    expect(serverCommand(DEFAULT_SETTINGS, undefined, posix([workspaceBin]))).toEqual({ command: 'npx', args: ['--yes', 'docdrift', 'lsp', '--stdio'], options: {}, source: 'npx' });
  });

  it('docdrift.serverPath wins over the local install: a relative path from the folder, an absolute one, a name on PATH, a .js bin run with node', () => {
    const local = posix([workspaceBin]);
    expect(serverCommand(settingsOf({ serverPath: 'tools/docdrift' }), folder, local)).toEqual({ command: '/work/project/tools/docdrift', args: [...SERVER_ARGS], options: { cwd: folder }, source: 'setting' });
    expect(serverCommand(settingsOf({ serverPath: '/opt/bin/docdrift' }), folder, local).command).toBe('/opt/bin/docdrift');
    expect(serverCommand(settingsOf({ serverPath: ' docdrift ' }), folder, local)).toMatchObject({ command: 'docdrift', args: ['lsp', '--stdio'], source: 'setting' });
    expect(serverCommand(settingsOf({ serverPath: '../docdrift/dist/cli/docdrift.js' }), folder, local)).toEqual({ command: 'node', args: ['/work/docdrift/dist/cli/docdrift.js', 'lsp', '--stdio'], options: { cwd: folder }, source: 'setting' });
    expect(serverCommand(settingsOf({ serverPath: 'bin/docdrift.mjs' }), undefined, local)).toMatchObject({ command: 'node', args: ['bin/docdrift.mjs', 'lsp', '--stdio'] });
  });

  it('on Windows: npm\'s .cmd shims through the shell, quoted when the path has a space', () => {
    const spaced = 'C:\\Users\\A B\\project';
    const bin = path.win32.join(spaced, 'node_modules', '.bin', 'docdrift.cmd');
    expect(bin).toBe('C:\\Users\\A B\\project\\node_modules\\.bin\\docdrift.cmd');
    expect(serverCommand(DEFAULT_SETTINGS, spaced, windows([bin]))).toEqual({ command: `"${bin}"`, args: ['lsp', '--stdio'], options: { cwd: spaced, shell: true }, source: 'workspace' });
    expect(serverCommand(DEFAULT_SETTINGS, spaced, windows([]))).toMatchObject({ command: 'npx.cmd', options: { shell: true }, source: 'npx' });
    expect(serverCommand(settingsOf({ serverPath: 'C:\\tools\\docdrift.exe' }), spaced, windows([]))).toMatchObject({ command: 'C:\\tools\\docdrift.exe', options: { cwd: spaced } });
    expect(serverCommand(settingsOf({ serverPath: 'C:\\tools\\docdrift.exe' }), spaced, windows([])).options.shell).toBeUndefined();
    // A relative path with backslashes, from the folder.
    expect(serverCommand(settingsOf({ serverPath: 'tools\\docdrift.cmd' }), spaced, windows([]))).toMatchObject({ command: '"C:\\Users\\A B\\project\\tools\\docdrift.cmd"', options: { shell: true } });
  });
});

describe('initializationOptions: docdrift.configPath for the server', () => {
  it('passes the path as given (the server resolves it from the workspace root), nothing when empty', () => {
    expect(initializationOptions(DEFAULT_SETTINGS)).toEqual({});
    expect(initializationOptions(settingsOf({ configPath: '  ' }))).toEqual({});
    expect(initializationOptions(settingsOf({ configPath: 'config/docdrift.yaml' }))).toEqual({ configFile: 'config/docdrift.yaml' });
  });
});
