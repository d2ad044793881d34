// The extension's wiring, with stand-ins for VS Code and the language
// client (no VS Code is downloaded): the server's command line from the
// settings, the files it is registered for, and the two commands sending
// `workspace/executeCommand` and showing what the server returns.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const Module = require('node:module');
const path = require('node:path');
const { minimatch } = require('minimatch');

const settings = {};
const shown = { output: [], documents: [], errors: [], warnings: [], context: {} };
const commands = {};
const clients = [];
let editor;

const vscode = {
  Uri: {
    joinPath: (base, ...parts) => ({ fsPath: path.join(base.fsPath, ...parts) }),
  },
  workspace: {
    workspaceFolders: [{ uri: { fsPath: '/work/catalog' } }],
    getConfiguration: () => ({ get: (key) => settings[key] }),
    openTextDocument: async (doc) => {
      shown.documents.push(doc);
      return doc;
    },
  },
  window: {
    createOutputChannel: () => ({
      clear: () => { shown.output = []; },
      appendLine: (line) => shown.output.push(line),
      show: () => {},
      dispose: () => {},
    }),
    showTextDocument: async () => {},
    showErrorMessage: (m) => shown.errors.push(m),
    showWarningMessage: (m) => shown.warnings.push(m),
    get activeTextEditor() {
      return editor;
    },
  },
  commands: {
    registerCommand: (name, fn) => {
      commands[name] = fn;
      return { dispose: () => {} };
    },
    executeCommand: async (name, key, value) => {
      if (name === 'setContext') shown.context[key] = value;
    },
  },
};

class LanguageClient {
  constructor(id, name, server, options) {
    Object.assign(this, { id, name, server, options, requests: [] });
    clients.push(this);
  }
  async start() {}
  async stop() {}
  async sendRequest(method, params) {
    this.requests.push({ method, params });
    const { command } = params;
    if (command === 'skillsift.rank') {
      const a = params.arguments[0];
      return { text: `ranked: ${a.prompt || `the prompt at ${a.position.line}:${a.position.character}`}`, json: {} };
    }
    if (command === 'skillsift.listing') return { text: '- pdf-forms: Fills PDF forms.', json: {} };
    throw new Error(`no command ${command}`);
  }
}

const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return { LanguageClient };
  return load.call(this, request, ...rest);
};
const extension = require('../extension.js');

function document(uri, lines) {
  return {
    uri: { toString: () => uri },
    lineAt: (n) => ({ text: lines[n] }),
    getText: (sel) => lines[sel.start.line].slice(sel.start.character, sel.end.character),
  };
}

test('starts `skillsift lsp --stdio` for the catalog files, from the settings', async () => {
  settings.path = '/opt/skillsift/bin/skillsift';
  settings.baseline = '.skillsift/baseline.json';
  settings.extraFiles = ['**/prompts/*.json'];
  const context = { subscriptions: [] };
  await extension.activate(context);
  const client = clients.at(-1);
  assert.deepStrictEqual(client.server, {
    command: '/opt/skillsift/bin/skillsift',
    args: ['lsp', '--stdio', '--baseline', path.join('/work/catalog', '.skillsift/baseline.json')],
  });
  assert.strictEqual(shown.context['skillsift.active'], true);
  const patterns = client.options.documentSelector.map((s) => s.pattern);
  assert.ok(client.options.documentSelector.every((s) => s.scheme === 'file'));
  const served = (file) => patterns.some((p) => minimatch(file, p, { dot: true }));
  for (const file of [
    'skills/pdf-forms/SKILL.md',
    'evals/cases/pdf-forms.json',
    'skills/pdf-forms/evals/evals.json',
    'skills/pdf-forms/evals/trigger-queries.json',
    'skills/pdf-forms/evals/trigger/eval_queries.json',
    'skills/pdf-forms/trigger_tests.yaml',
    'skills/pdf-forms/tests/trigger_tests.yaml',
    'skillsift.toml',
    'more/prompts/pdf.json',
  ]) {
    assert.ok(served(file), `${file} is served`);
  }
  for (const file of ['package.json', 'README.md', 'skills/pdf-forms/scripts/fill.py']) {
    assert.ok(!served(file), `${file} is not served`);
  }
});

test('without settings, the binary on PATH and no baseline', () => {
  for (const k of Object.keys(settings)) delete settings[k];
  assert.deepStrictEqual(extension.serverOptions(vscode.workspace.getConfiguration(), undefined), {
    command: 'skillsift',
    args: ['lsp', '--stdio'],
  });
});

test('rank the selection, or the prompt under the cursor', async () => {
  const client = clients.at(-1);
  const lines = ['{"prompt": "fill in this W-9 form"}', '  fix the workflow file  '];
  editor = {
    document: document('file:///work/catalog/evals/cases/pdf-forms.json', lines),
    selection: { isEmpty: false, start: { line: 0, character: 12 }, end: { line: 0, character: 33 }, active: { line: 0 } },
  };
  await commands['skillsift.rankSelection']();
  assert.deepStrictEqual(client.requests.at(-1), {
    method: 'workspace/executeCommand',
    params: {
      command: 'skillsift.rank',
      arguments: [{ uri: 'file:///work/catalog/evals/cases/pdf-forms.json', prompt: 'fill in this W-9 form' }],
    },
  });
  assert.deepStrictEqual(shown.output, ['ranked: fill in this W-9 form']);
  editor.selection = { isEmpty: true, active: { line: 1, character: 4 } };
  await commands['skillsift.rankSelection']();
  assert.deepStrictEqual(client.requests.at(-1).params.arguments[0], {
    uri: 'file:///work/catalog/evals/cases/pdf-forms.json',
    position: { line: 1, character: 4 },
  });
});

test('the listing opens in a document of its own', async () => {
  await commands['skillsift.showListing']();
  assert.deepStrictEqual(shown.documents.at(-1), { content: '- pdf-forms: Fills PDF forms.', language: 'plaintext' });
});

test('with no editor open, the commands say what to do', async () => {
  editor = undefined;
  await commands['skillsift.showListing']();
  assert.match(shown.warnings.at(-1), /open a SKILL\.md or a case file/);
});

test("a workspace's settings cannot name the program to run", () => {
  const manifest = require('../package.json');
  const setting = manifest.contributes.configuration.properties['skillsift.path'];
  assert.strictEqual(setting.scope, 'machine');
  assert.deepStrictEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['skillsift.path']);
});
