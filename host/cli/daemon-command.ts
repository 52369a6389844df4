// `webcap daemon start|stop|status`: the background host `webcap call` and
// `webcap run` use so sessions last across commands (host/daemon). `serve`
// (hidden) is the daemon process itself.
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { connectDaemon, daemonStatus, request, startDaemon } from '../daemon/client.js';
import { socketPath } from '../daemon/socket.js';
import { optionsOf, print } from './args.js';
import { configFileOf } from './executor.js';
import type { DaemonStatus } from '../daemon/protocol.js';

function show(status: DaemonStatus | undefined, socket: string, json: boolean | undefined): void {
  if (json) return print(JSON.stringify(status ? { running: true, ...status } : { running: false, socket }));
  if (!status) return print(`no daemon running (socket ${socket})`);
  print(`daemon running: pid ${status.pid}, up ${status.uptime_s} s, sessions ${status.sessions.length ? status.sessions.join(', ') : '(none)'}, socket ${status.socket}${status.config ? `, config ${status.config}` : ''}`);
  if (status.console) print(`webcap console: ${status.console}`);
}

export function registerDaemon(program: Command): void {
  const daemon = program.command('daemon').description('the background host that keeps sessions across commands');
  daemon.command('start').description('start the daemon for this workspace (if none is running)').action(async (_o: unknown, cmd: Command) => {
    const opts = optionsOf(cmd);
    const config = loadConfig(opts.config);
    const socket = (await connectDaemon(config)) ?? (await startDaemon(config, configFileOf(opts.config) ?? undefined));
    show(await request(socket, { op: 'status' }) as DaemonStatus, socketPath(config), opts.json);
  });
  daemon.command('stop').description('stop the daemon (its sessions close)').action(async (_o: unknown, cmd: Command) => {
    const opts = optionsOf(cmd);
    const config = loadConfig(opts.config);
    const socket = await connectDaemon(config);
    if (socket) await request(socket, { op: 'stop' });
    if (opts.json) print(JSON.stringify({ stopped: Boolean(socket), socket: socketPath(config) }));
    else print(socket ? 'daemon stopped' : `no daemon running (socket ${socketPath(config)})`);
  });
  daemon.command('status').description('pid, uptime, sessions and socket of the running daemon').action(async (_o: unknown, cmd: Command) => {
    const opts = optionsOf(cmd);
    const config = loadConfig(opts.config);
    const status = await daemonStatus(config);
    show(status, socketPath(config), opts.json);
    if (!status) process.exitCode = 3;
  });
  daemon.command('serve', { hidden: true }).description('run the daemon in this process').action(async (_o: unknown, cmd: Command) => {
    const { serveDaemon } = await import('../daemon/server.js');
    await serveDaemon(configFileOf(optionsOf(cmd).config) ?? undefined);
  });
}
