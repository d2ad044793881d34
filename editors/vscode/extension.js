// skillsift for VS Code: starts `skillsift lsp --stdio` for SKILL.md files
// and the files trigger prompts come from, and adds two commands that show
// what the server's `skillsift.rank` and `skillsift.listing` return.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** The files the server serves: SKILL.md, case files, evals files,
 * trigger sets and waza tests (docs/case-files.md), skillsift.toml. */
const PATTERNS = [
  '**/SKILL.md',
  '**/evals/**/*.json',
  '**/evals/**/*.{yaml,yml}',
  '**/trigger_tests.{yaml,yml}',
  '**/eval_set.json',
  '**/skillsift.toml',
];

let client;
let output;

/** The server's command line from the settings. */
function serverOptions(config, folder) {
  const args = ['lsp', '--stdio'];
  const baseline = config.get('baseline');
  if (baseline) {
    args.push('--baseline', folder ? vscode.Uri.joinPath(folder.uri, baseline).fsPath : baseline);
  }
  // no `transport`: the client would add a second `--stdio`
  return { command: config.get('path') || 'skillsift', args };
}

function documentSelector(config) {
  const extra = config.get('extraFiles') || [];
  return PATTERNS.concat(extra).map((pattern) => ({ scheme: 'file', pattern }));
}

async function start() {
  const config = vscode.workspace.getConfiguration('skillsift');
  const folder = (vscode.workspace.workspaceFolders || [])[0];
  client = new LanguageClient(
    'skillsift',
    'skillsift',
    serverOptions(config, folder),
    { documentSelector: documentSelector(config), outputChannel: output },
  );
  await client.start();
  await vscode.commands.executeCommand('setContext', 'skillsift.active', true);
}

/** Run one of the server's commands on the active editor's file. */
async function run(command, argument) {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    vscode.window.showWarningMessage('skillsift: open a SKILL.md or a case file of the catalog first.');
    return undefined;
  }
  if (!client) {
    vscode.window.showWarningMessage('skillsift: the language server is not running.');
    return undefined;
  }
  try {
    return await client.sendRequest('workspace/executeCommand', {
      command,
      arguments: [Object.assign({ uri: editor.document.uri.toString() }, argument)],
    });
  } catch (e) {
    vscode.window.showErrorMessage(`skillsift: ${e.message}`);
    return undefined;
  }
}

async function rankSelection() {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    return run('skillsift.rank', {});
  }
  // the selection, or the trigger prompt under the cursor (the server
  // finds it in the file)
  const selection = editor.selection;
  const argument = selection.isEmpty
    ? { position: { line: selection.active.line, character: selection.active.character } }
    : { prompt: editor.document.getText(selection) };
  const result = await run('skillsift.rank', argument);
  if (result) {
    output.clear();
    output.appendLine(result.text);
    output.show(true);
  }
}

async function showListing() {
  const result = await run('skillsift.listing', {});
  if (result) {
    const doc = await vscode.workspace.openTextDocument({ content: result.text, language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}

async function activate(context) {
  output = vscode.window.createOutputChannel('skillsift');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('skillsift.rankSelection', rankSelection),
    vscode.commands.registerCommand('skillsift.showListing', showListing),
    vscode.commands.registerCommand('skillsift.restart', async () => {
      if (client) {
        await client.stop();
      }
      await start();
    }),
  );
  try {
    await start();
  } catch (e) {
    const path = vscode.workspace.getConfiguration('skillsift').get('path') || 'skillsift';
    vscode.window.showErrorMessage(
      `skillsift: could not start \`${path} lsp\` (${e.message}). Install skillsift, or set skillsift.path to the binary.`,
    );
  }
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate, PATTERNS, serverOptions, documentSelector };
