// The `webcap` program (commander). Each command lives in its own file under
// host/cli/ and registers itself with one function, so adding a command is one
// import and one line below. Parse errors (unknown option or command, a
// missing argument) exit 2 with commander's suggestion; help and --version
// exit 0 without running anything.
import { Command } from 'commander';
import { registerBrowserServer } from './browser-server-command.js';
import { registerCall } from './call-command.js';
import { registerChain } from './chain-command.js';
import { registerDaemon } from './daemon-command.js';
import { registerDemo } from './demo-command.js';
import { registerDiscover } from './discover-command.js';
import { registerDoctor } from './doctor-command.js';
import { registerManifests } from './manifests-command.js';
import { registerMcp } from './mcp-command.js';
import { registerProfiles } from './profiles-command.js';
import { registerReport } from './report-command.js';
import { registerRun } from './run-command.js';
import { registerSecrets } from './secrets-command.js';
import { registerVerbs } from './verbs.js';
import { packageVersion } from './version.js';
import { loadConfig } from '../config/load.js';
import { optionsOf } from './args.js';
import { rememberChain } from './last-chain.js';

export function buildProgram(): Command {
  const program = new Command('webcap')
    .description('Governed browser capabilities (web.*) for agents and plans.')
    .version(packageVersion(), '-V, --version', 'print the webcap version')
    .option('--config <file>', 'agent_config.toml to use (default: $WEBCAP_CONFIG, else ./agent_config.toml)')
    .option('--json', 'print results (and errors) as JSON on stdout')
    .option('-y, --yes', 'approve every consent question')
    .option('--no-daemon', 'run in this process instead of the background daemon (also [cli] daemon = false)')
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .addHelpText('after', `
Examples:
  webcap call web.open '{"url":"https://shop.example.org/"}'   # sessions last across commands (daemon)
  webcap call web.click '{"selector":"#buy"}'
  webcap run plan.rtfs --config agent_config.toml -y
  webcap manifests web.open                                     # one capability's parameters
  webcap help call                                              # one command's help`);
  // run and call say which chain they write, for chain/report commands given no FILE (last-chain.ts).
  program.hook('preAction', (_program, action) => {
    if (action.name() !== 'run' && action.name() !== 'call') return;
    try { rememberChain(loadConfig(optionsOf(action).config).chain.path); } catch { /* the command itself reports a bad config */ }
  });
  for (const register of [registerDemo, registerRun, registerCall, registerManifests, registerChain, registerDiscover, registerMcp, registerDaemon, registerProfiles, registerSecrets, registerReport, registerBrowserServer, registerDoctor, registerVerbs]) {
    register(program);
  }
  return program;
}
