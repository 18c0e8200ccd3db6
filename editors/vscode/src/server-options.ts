/**
 * How the VS Code extension starts `docdrift lsp` and what it tells it, from its settings: pure
 * functions without the `vscode` module, so that test/vscode-extension.test.ts runs them under
 * vitest. src/extension.ts reads the settings and hands the results to vscode-languageclient.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The extension's settings that decide whether and how the server runs (package.json `contributes.configuration`). */
export interface DocdriftSettings {
  /** `docdrift.enable`: start the server at all. */
  enable: boolean;
  /** `docdrift.configPath`: the config file, relative to the workspace folder or absolute; `""`: found as the CLI finds it. */
  configPath: string;
  /** `docdrift.serverPath`: the docdrift executable (or a `.js` bin, run with `node`); `""`: the workspace's, else `npx`. */
  serverPath: string;
}

/** The settings when the user set none (package.json's defaults). */
export const DEFAULT_SETTINGS: DocdriftSettings = Object.freeze({ enable: true, configPath: '', serverPath: '' });

/** The arguments after the executable: the sub-command and the transport every client passes. */
export const SERVER_ARGS: readonly string[] = Object.freeze(['lsp', '--stdio']);

/** The process to start: vscode-languageclient's `Executable` (transport stdio, its default). */
export interface ServerCommand {
  command: string;
  args: string[];
  options: { cwd?: string; shell?: boolean };
  /** Which rule chose the command, for the output channel: `setting`, `workspace` or `npx`. */
  source: 'setting' | 'workspace' | 'npx';
}

/** What {@link serverCommand} asks of the machine; the defaults are the real ones. */
export interface Host {
  platform: NodeJS.Platform;
  /** Whether a file exists. */
  exists: (file: string) => boolean;
}

const REAL_HOST: Host = { platform: process.platform, exists: existsSync };

/**
 * The command that starts the server, in this order:
 *
 * 1. `docdrift.serverPath` when set: a path relative to the workspace folder, an absolute path or a
 *    bare name looked up on PATH; a `.js`, `.mjs` or `.cjs` file is run with `node` (a checkout's
 *    `dist/cli/docdrift.js`).
 * 2. The workspace's own install, `node_modules/.bin/docdrift` (`docdrift.cmd` on Windows).
 * 3. `npx --yes docdrift lsp --stdio`: a docdrift installed globally with npm, else the published
 *    package, which npx downloads into its cache.
 *
 * The server runs in the workspace folder (it takes its root from `initialize`, not from the cwd).
 *
 * @param settings the extension's settings
 * @param folder the workspace folder's path; undefined without a folder (then only 1 and 3 apply)
 * @param host the platform and a file-existence check (tests pass their own)
 */
export function serverCommand(settings: DocdriftSettings, folder: string | undefined, host: Host = REAL_HOST): ServerCommand {
  const windows = host.platform === 'win32';
  // The platform's path rules (path.win32 for a Windows host, whatever runs this).
  const paths = windows ? path.win32 : path.posix;
  const options = folder !== undefined ? { cwd: folder } : {};
  const setting = settings.serverPath.trim();
  if (setting !== '') {
    const looksLikePath = setting.includes('/') || (windows && setting.includes('\\'));
    const file = looksLikePath && folder !== undefined ? paths.resolve(folder, setting) : setting;
    if (/\.[cm]?js$/i.test(file)) return { command: 'node', args: [file, ...SERVER_ARGS], options, source: 'setting' };
    // On Windows, npm's bins are .cmd files, which only run through the shell (Node refuses to spawn them directly).
    if (windows && !/\.exe$/i.test(file)) return { command: quoteForShell(file), args: [...SERVER_ARGS], options: { ...options, shell: true }, source: 'setting' };
    return { command: file, args: [...SERVER_ARGS], options, source: 'setting' };
  }
  if (folder !== undefined) {
    const bin = paths.join(folder, 'node_modules', '.bin', windows ? 'docdrift.cmd' : 'docdrift');
    if (host.exists(bin)) return { command: windows ? quoteForShell(bin) : bin, args: [...SERVER_ARGS], options: windows ? { ...options, shell: true } : options, source: 'workspace' };
  }
  return { command: windows ? 'npx.cmd' : 'npx', args: ['--yes', 'docdrift', ...SERVER_ARGS], options: windows ? { ...options, shell: true } : options, source: 'npx' };
}

/** A command for cmd.exe (`shell: true` joins command and arguments unquoted): in double quotes when it holds a space. */
function quoteForShell(command: string): string {
  return /\s/.test(command) && !command.startsWith('"') ? `"${command}"` : command;
}

/**
 * The `initializationOptions` of the `initialize` request: `configFile` when `docdrift.configPath`
 * is set (the server resolves a relative path from the workspace root and checks the file as the
 * CLI's `--config`; a missing one is an error message in VS Code).
 */
export function initializationOptions(settings: DocdriftSettings): { configFile?: string } {
  const configPath = settings.configPath.trim();
  return configPath !== '' ? { configFile: configPath } : {};
}

/**
 * The languages whose documents the client sends the server: the docs (Markdown, MDX, whose
 * language id comes from the MDX extension, so `*.mdx` files are also matched by pattern, and
 * reStructuredText) and the code whose edits make docs stale (Python, TypeScript, JavaScript).
 */
export const DOCUMENT_LANGUAGES: readonly string[] = Object.freeze(['markdown', 'mdx', 'restructuredtext', 'python', 'typescript', 'javascript']);

/** vscode-languageclient's `documentSelector`: {@link DOCUMENT_LANGUAGES} and `*.mdx` files, on disk (`file:`). */
export function documentSelector(): Array<{ scheme: 'file'; language?: string; pattern?: string }> {
  return [...DOCUMENT_LANGUAGES.map((language) => ({ scheme: 'file' as const, language })), { scheme: 'file', pattern: '**/*.mdx' }];
}

/** The settings that restart the server when they change (`docdrift.trace.server` is applied by the client without one). */
export const RESTART_SETTINGS: readonly string[] = Object.freeze(['docdrift.enable', 'docdrift.configPath', 'docdrift.serverPath']);
