// `webcap secrets set NAME --origin ORIGIN [--origin …] [--totp]`, `secrets
// list [--json]` and `secrets rm NAME`. A value never comes from arguments
// (they show in `ps` and shell history): from the terminal without echo, or
// from stdin, one trailing newline dropped.
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { checkSetInput, listSecrets, removeSecret, setSecret } from '../secrets/vault.js';
import { readSecretValue } from '../secrets/read-value.js';
import { collect, optionsOf, print } from './args.js';

export function registerSecrets(program: Command): void {
  const secrets = program.command('secrets').description('the encrypted vault {{secret:NAME}} and {{totp:NAME}} name (values are never shown)');
  secrets.command('set').description('store a secret bound to the origins it may be typed into and sent to; the value is read without echo or from stdin')
    .argument('<name>', 'secret name')
    .requiredOption('--origin <origin>', 'scheme://host[:port] the secret belongs to (repeat for more)', collect)
    .option('--totp', 'the value is a TOTP seed (base32 or otpauth:// URI); {{totp:NAME}} types the current code')
    .action(async (name: string, o: { origin: string[]; totp?: boolean }, cmd: Command) => {
      const config = loadConfig(optionsOf(cmd).config);
      checkSetInput(config, name, o.origin);
      const value = await readSecretValue(`value for ${name}${o.totp ? ' (TOTP seed)' : ''}: `);
      const s = setSecret(config, { name, origins: o.origin, kind: o.totp ? 'totp' : 'secret', value });
      print(`secret ${s.name} (${s.kind}) set for ${s.origins.join(' ')}`);
    });
  secrets.command('list').description('name, kind, origins and last use of each secret (never values)').action((_o: unknown, cmd: Command) => {
    const opts = optionsOf(cmd);
    const list = listSecrets(loadConfig(opts.config));
    if (opts.json) return print(JSON.stringify(list));
    if (!list.length) return print('no secrets');
    for (const s of list) print(`${s.name.padEnd(20)} ${s.kind.padEnd(6)} last used ${s.last_used ?? 'never'}  ${s.origins.join(' ')}`);
  });
  secrets.command('rm').description('delete a secret').argument('<name>', 'secret name').action((name: string, _o: unknown, cmd: Command) => {
    removeSecret(loadConfig(optionsOf(cmd).config), name);
    print(`secret ${name} removed`);
  });
}

