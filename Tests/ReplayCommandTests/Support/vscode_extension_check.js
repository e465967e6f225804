// Loads the VS Code extension in Tools/editors/vscode with a stand-in for VS Code's API, asks it
// for the debug adapter of a launch configuration, runs that command line, and drives it:
// initialize, launch, configurationDone, next, stackTrace, disconnect. Prints what it saw as
// one JSON document.
//
//   node vscode_extension_check.js EXTENSION_FOLDER REPLAY RECORDING SOURCE_ROOT
const Module = require("module");
const path = require("path");
const { spawn } = require("child_process");

const [extensionFolder, replay, recording, sourceRoot] = process.argv.slice(2);
const registered = {};
class DebugAdapterExecutable {
  constructor(command, args, options) {
    Object.assign(this, { command, args, options });
  }
}
const vscode = {
  debug: {
    registerDebugAdapterDescriptorFactory(type, factory) {
      registered[type] = factory;
      return { dispose() {} };
    },
  },
  DebugAdapterExecutable,
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "vscode" ? vscode : load.call(this, request, ...rest);
};

const manifest = require(path.join(extensionFolder, "package.json"));
const extension = require(path.join(extensionFolder, manifest.main));
const context = { subscriptions: [] };
extension.activate(context);
const type = manifest.contributes.debuggers[0].type;
const configuration = { type, request: "launch", recording, sourceRoot, replay };
const descriptor = registered[type].createDebugAdapterDescriptor({
  configuration,
  workspaceFolder: { uri: { fsPath: sourceRoot } },
});

const child = spawn(descriptor.command, descriptor.args, { cwd: descriptor.options.cwd });
let buffer = Buffer.alloc(0);
const seen = [];
let seq = 0;
function send(command, args) {
  const body = Buffer.from(JSON.stringify({ seq: ++seq, type: "request", command, arguments: args || {} }));
  child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  child.stdin.write(body);
}
const script = [
  ["initialize", { adapterID: type }],
  ["launch", configuration],
  ["configurationDone"],
  ["next", { threadId: 1 }],
  ["stackTrace", { threadId: 1 }],
  ["disconnect"],
];
function nextRequest() {
  const step = script.shift();
  if (step) send(step[0], step[1]);
}
child.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  while (true) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/.exec(buffer.slice(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.slice(end + 4, end + 4 + length).toString());
    buffer = buffer.slice(end + 4 + length);
    seen.push(message);
    if (message.type === "response") nextRequest();
  }
});
child.on("exit", (status) => {
  const stack = seen.find((m) => m.command === "stackTrace");
  console.log(
    JSON.stringify({
      type,
      command: descriptor.command,
      args: descriptor.args,
      status,
      responses: seen.filter((m) => m.type === "response").map((m) => [m.command, m.success]),
      stopped: seen.filter((m) => m.event === "stopped").map((m) => m.body.reason),
      topFrame: stack && stack.body.stackFrames[0],
    })
  );
});
nextRequest();
setTimeout(() => { console.error("no answer within 120 s"); process.exit(3); }, 120000).unref();
