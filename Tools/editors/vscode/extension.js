// Registers the "composable-replay" debugger: VS Code starts `replay dap` (the executable the
// launch configuration names) and speaks the Debug Adapter Protocol with it. No build step, and
// nothing to install but this folder.
const vscode = require("vscode");

/** The command line VS Code runs for a launch configuration. */
function adapterCommand(configuration, workspaceFolder) {
  return {
    command: configuration.replay || "replay",
    args: ["dap"],
    cwd: configuration.cwd || workspaceFolder,
  };
}

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory("composable-replay", {
      createDebugAdapterDescriptor(session) {
        const folder = session.workspaceFolder ? session.workspaceFolder.uri.fsPath : undefined;
        const { command, args, cwd } = adapterCommand(session.configuration, folder);
        return new vscode.DebugAdapterExecutable(command, args, { cwd });
      },
    })
  );
}

function deactivate() {}

module.exports = { activate, deactivate, adapterCommand };
