// Drives devplace-clangd through a real Language Server Protocol exchange
// over stdio (vscode-jsonrpc) and prints what an editor would show.
//
// Usage: node lsp_client.js SERVER SETTINGS.json PROJECT_DIR BUGGY.cpp FIXED.cpp HALF.cpp
// SETTINGS.json is the VS Code recipe: the server gets its clangd.arguments.
//
// initialize → didOpen(buggy) → publishDiagnostics with the devplace warning
// → codeAction returns its fix → didChange(half-written code) → the server
// keeps answering and reports nothing from the function that does not
// compile → didChange(fixed) → the devplace diagnostics are gone.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');

const [server, settingsFile, project, buggyFile, fixedFile, halfFile] = process.argv.slice(2);
const serverArgs = JSON.parse(fs.readFileSync(settingsFile, 'utf8'))['clangd.arguments'];
const file = path.join(project, 'train.cpp');
const uri = 'file://' + file;
const texts = {
  buggy: fs.readFileSync(buggyFile, 'utf8'),
  fixed: fs.readFileSync(fixedFile, 'utf8'),
  half: fs.readFileSync(halfFile, 'utf8'),
};
fs.writeFileSync(file, texts.buggy);

const child = spawn(server, serverArgs.concat(['--log=error', '-j=1']), { cwd: project });
child.stderr.on('data', (d) => process.stderr.write(d));
const conn = rpc.createMessageConnection(
  new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));

let waiting = null;
conn.onNotification('textDocument/publishDiagnostics', (p) => {
  if (p.uri === uri && waiting && p.version === waiting.version) {
    const w = waiting;
    waiting = null;
    w.resolve(p.diagnostics);
  }
});
function diagnosticsFor(version) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no diagnostics for version ' + version)), 60000);
    waiting = { version, resolve: (d) => { clearTimeout(timer); resolve(d); } };
  });
}
const devplace = (ds) => ds.filter((d) => String(d.code || '').startsWith('devplace-'));
function show(label, ds) {
  for (const d of devplace(ds))
    console.log(`${label}: ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity === 2 ? 'warning' : d.severity}: ${d.message} [${d.code}] (source: ${d.source})`);
  console.log(`${label}: ${devplace(ds).length} devplace diagnostic(s)`);
}

async function main() {
  conn.listen();
  const init = await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: 'file://' + project,
    capabilities: {
      textDocument: {
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } },
      },
    },
  });
  console.log('server: ' + init.serverInfo.name + ' ' + init.serverInfo.version.split(' ')[0]);
  conn.sendNotification('initialized', {});

  let next = diagnosticsFor(1);
  conn.sendNotification('textDocument/didOpen',
    { textDocument: { uri, languageId: 'cpp', version: 1, text: texts.buggy } });
  const opened = await next;
  show('open', opened);

  const warning = devplace(opened).find((d) => d.code === 'devplace-host-sink');
  if (warning) {
    const actions = await conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri }, range: warning.range, context: { diagnostics: [warning] },
    });
    for (const a of actions) {
      const edits = (a.edit && a.edit.changes && a.edit.changes[uri]) || [];
      console.log(`action: ${a.title} (${a.kind}) -> ${edits.map((e) => JSON.stringify(e.newText)).join(', ')}`);
    }
  }

  next = diagnosticsFor(2);
  conn.sendNotification('textDocument/didChange',
    { textDocument: { uri, version: 2 }, contentChanges: [{ text: texts.half }] });
  const half = await next;
  // A function that does not compile gives no devplace diagnostic, although
  // the finished code's bug is already in it.
  console.log(`half-written: ${half.filter((d) => d.severity === 1).length > 0 ? 'errors shown' : 'no errors'}, ` +
              `server alive, ${devplace(half).length} devplace diagnostic(s)`);

  next = diagnosticsFor(3);
  conn.sendNotification('textDocument/didChange',
    { textDocument: { uri, version: 3 }, contentChanges: [{ text: texts.fixed }] });
  show('fixed', await next);

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  child.on('exit', (code) => { console.log('server exit: ' + code); process.exit(0); });
}
main().catch((e) => { console.log('FAIL: ' + e.message); child.kill(); process.exit(1); });
