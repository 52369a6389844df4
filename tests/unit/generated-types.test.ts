// Each capability's TypeScript types are generated from its manifest
// (scripts/gen-types.ts); a manifest edited without regenerating fails here.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generatedTypes, GENERATED_TYPES_PATH } from '../../scripts/gen-types.js';
import { loadManifests } from '../../manifests/load.js';

it('manifests/types.generated.ts matches the manifests (npm run types)', () => {
  expect(readFileSync(GENERATED_TYPES_PATH, 'utf8')).toBe(generatedTypes());
});

it('every manifest has its params and result types and a CapabilityMap entry', () => {
  const text = generatedTypes();
  const ids = loadManifests().map((m) => m.id);
  expect(ids.length).toBeGreaterThan(30);
  for (const id of ids) expect(text).toContain(`${JSON.stringify(id)}: { params: `);
});

it('a manifest change shows in the generated types (the check above can fail)', () => {
  const [open, ...rest] = loadManifests().filter((m) => m.id === 'web.open');
  expect(rest).toEqual([]);
  const changed = { ...open, input_schema: { ...open.input_schema, properties: { ...(open.input_schema.properties as object), extra_flag: { type: 'boolean' } } } };
  const text = generatedTypes([changed]);
  expect(text).toContain('extra_flag?: boolean;');
  expect(text).not.toBe(generatedTypes([open]));
});
