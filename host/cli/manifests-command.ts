// `webcap manifests [ID] [--json]`: every capability, or one capability's
// parameters read from its manifest (the single source of truth).
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { loadManifests, type Manifest } from '../../manifests/load.js';
import { providerMetadata } from '../sidecar-link/attestation.js';
import { optionsOf, print } from './args.js';

interface Property { type?: string | string[]; description?: string; enum?: unknown[] }

function describeOne(m: Manifest): string {
  const schema = m.input_schema as { properties?: Record<string, Property>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const type = p.enum ? p.enum.map((v) => JSON.stringify(v)).join('|') : [p.type ?? 'any'].flat().join('|');
    return `  ${name}${required.has(name) ? ' (required)' : ''}  ${type}${p.description ? `  ${p.description}` : ''}`;
  });
  return [`${m.id}  (approval: ${m.approval})`, `  ${m.description}`, '', 'parameters:', ...(rows.length ? rows : ['  (none)'])].join('\n');
}

export function registerManifests(program: Command): void {
  program.command('manifests')
    .description('list the capabilities, or show one capability\'s parameters')
    .argument('[id]', 'a capability id, e.g. web.open')
    .action((id: string | undefined, _o: unknown, cmd: Command) => {
      const { json } = optionsOf(cmd);
      const list = loadManifests();
      if (id) {
        const m = list.find((x) => x.id === id);
        if (!m) {
          const near = list.filter((x) => x.id.includes(id.split('.').pop() ?? id)).map((x) => x.id);
          throw new WebcapError('unknown_capability', `no capability "${id}"${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`, { id });
        }
        print(json ? JSON.stringify({ id: m.id, description: m.description, approval: m.approval, provider: providerMetadata(m.provider), input_schema: m.input_schema }) : describeOne(m));
        return;
      }
      print(json ? JSON.stringify(list.map((m) => ({ id: m.id, description: m.description, approval: m.approval, provider: providerMetadata(m.provider) }))) : list.map((m) => `${m.id.padEnd(22)} ${m.description.split('. ')[0]}`).join('\n'));
    });
}
