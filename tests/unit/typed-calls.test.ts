// host.call is typed from the manifests: a wrong param is a compile error
// (tsconfig.tests.json type-checks this file; each @ts-expect-error fails the
// check if the error it expects goes away), and a known id answers its result.
import { expect, expectTypeOf, it } from 'vitest';
import type { Host } from '../../host/host.js';
import type { WebOpenResult } from '../../manifests/types.generated.js';

// Never run: only compiled. Each line is a call a user might write.
async function calls(host: Host) {
  // @ts-expect-error a number is not a URL
  await host.call('web.open', { url: 5 });
  // @ts-expect-error web.open needs its url
  await host.call('web.open', {});
  // @ts-expect-error not an option of wait_until
  await host.call('web.navigate', { url: 'https://example.org/', wait_until: 'soon' });
  // @ts-expect-error web.click takes no such param
  await host.call('web.click', { selector: '#go', clicks: 2 });
  // @ts-expect-error keys is a list
  await host.call('web.keypress', { keys: 'Enter' });
  const opened = await host.call('web.open', { url: 'https://example.org/' });
  expectTypeOf(opened).toEqualTypeOf<WebOpenResult>();
  expectTypeOf(opened.session).toEqualTypeOf<string>();
  expectTypeOf(opened.status).toEqualTypeOf<number | null>();
  // No params required: they may be left out.
  await host.call('web.status');
  // An id known only at run time takes a plain object and is checked when called.
  const id: string = process.argv[2] ?? 'web.status';
  expectTypeOf(await host.call(id, { anything: 1 })).toEqualTypeOf<Record<string, unknown>>();
  // The same typing on a scope.
  // @ts-expect-error a number is not a URL
  await host.scope().call('web.open', { url: 5 });
}

it('the typed calls above are compiled, not run', () => {
  expect(typeof calls).toBe('function');
});
