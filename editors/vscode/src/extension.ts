/**
 * The docdrift VS Code extension: a thin client that starts `docdrift lsp` (stdio) for the first
 * workspace folder with vscode-languageclient and restarts it when a `docdrift.*` setting that
 * decides how it runs changes. Everything the editor shows (diagnostics, quick fixes, hover, go to
 * definition) comes from the server; how it is started is src/server-options.ts.
 */
import * as vscode from 'vscode';
import { LanguageClient, type Executable, type LanguageClientOptions } from 'vscode-languageclient/node';
import { DEFAULT_SETTINGS, RESTART_SETTINGS, documentSelector, initializationOptions, serverCommand, type DocdriftSettings } from './server-options.js';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;
/** Start and stop run one at a time: a settings change during a start waits for it. */
let queue: Promise<void> = Promise.resolve();

/** The `docdrift.*` settings for `folder` (resource-scoped, so a folder's `.vscode/settings.json` counts). */
function readSettings(folder: vscode.WorkspaceFolder | undefined): DocdriftSettings {
  const config = vscode.workspace.getConfiguration('docdrift', folder?.uri);
  return {
    enable: config.get<boolean>('enable', DEFAULT_SETTINGS.enable),
    configPath: config.get<string>('configPath', DEFAULT_SETTINGS.configPath),
    serverPath: config.get<string>('serverPath', DEFAULT_SETTINGS.serverPath),
  };
}

/** Starts the server for the first workspace folder, unless `docdrift.enable` is off. */
async function start(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const settings = readSettings(folder);
  if (!settings.enable) {
    output?.info('docdrift.enable is off: the server is not started.');
    return;
  }
  const folderPath = folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
  const { command, args, options, source } = serverCommand(settings, folderPath);
  output?.info(`Starting the server (${source}): ${[command, ...args].join(' ')}${options.cwd ? ` in ${options.cwd}` : ''}`);
  const executable: Executable = { command, args, options };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    initializationOptions: initializationOptions(settings),
    ...(folder ? { workspaceFolder: folder } : {}),
    ...(output ? { outputChannel: output } : {}),
  };
  // The id `docdrift` makes the client read `docdrift.trace.server`.
  const next = new LanguageClient('docdrift', 'docdrift', { run: executable, debug: executable }, clientOptions);
  try {
    await next.start();
    client = next;
  } catch (error) {
    const how = source === 'npx' ? ' (no docdrift in node_modules/.bin: install it with `npm install -D docdrift`, or set docdrift.serverPath)' : '';
    void vscode.window.showErrorMessage(`docdrift: the language server did not start: ${command} ${args.join(' ')}${how}: ${(error as Error).message}`);
    await next.dispose().catch(() => undefined);
  }
}

/** Stops the running server, if any. */
async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) await running.dispose().catch(() => undefined);
}

/** Queues `step` after the starts and stops already asked for. */
function enqueue(step: () => Promise<void>): Promise<void> {
  queue = queue.then(step, step);
  return queue;
}

/** Called by VS Code on a Markdown, MDX (or code) file, or a workspace holding a docdrift config. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('docdrift', { log: true });
  context.subscriptions.push(
    output,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_SETTINGS.some((key) => event.affectsConfiguration(key))) void enqueue(async () => (await stop(), await start()));
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void enqueue(async () => (await stop(), await start()))),
    vscode.commands.registerCommand('docdrift.restartServer', () => enqueue(async () => (await stop(), await start()))),
  );
  await enqueue(start);
}

/** Called by VS Code on shutdown or when the extension is disabled. */
export function deactivate(): Promise<void> {
  return enqueue(stop);
}
