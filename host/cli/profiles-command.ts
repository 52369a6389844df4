// `webcap profiles list [--json]` and `webcap profiles delete NAME`: what is
// stored (name, origins, cookie count, bytes, age), never a value.
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { deleteProfile, listProfiles } from '../profiles/store.js';
import { optionsOf, print } from './args.js';

export function registerProfiles(program: Command): void {
  const profiles = program.command('profiles').description('the encrypted browser profiles web.open {profile} restores');
  profiles.command('list').description('name, origins, cookie count, bytes and age of each profile (never values)').action((_o: unknown, cmd: Command) => {
    const opts = optionsOf(cmd);
    const list = listProfiles(loadConfig(opts.config));
    if (opts.json) return print(JSON.stringify(list));
    if (!list.length) return print('no profiles');
    for (const p of list) if (p.invalid) print(`${p.name.padEnd(16)} INVALID: ${p.invalid}`); else print(`${p.name.padEnd(16)} ${String(p.cookies).padStart(3)} cookies  ${String(p.bytes).padStart(7)} bytes  ${p.age_days.toFixed(1)} days  ${p.origins.join(' ')}`);
  });
  profiles.command('delete').description('delete a profile').argument('<name>', 'profile name').action((name: string, _o: unknown, cmd: Command) => {
    deleteProfile(loadConfig(optionsOf(cmd).config), name);
    print(`profile ${name} deleted`);
  });
}
