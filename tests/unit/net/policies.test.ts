// The host's allowlist and ssrf policies, called directly (no server, no browser).
import { describe, expect, it } from 'vitest';
import { WebcapError } from '../../../manifests/errors.js';
import type { Manifest } from '../../../manifests/load.js';
import type { WebcapConfig } from '../../../host/config/types.js';
import { allowlistPolicy } from '../../../host/policies/allowlist.js';
import { ssrfPolicy } from '../../../host/policies/ssrf.js';
import type { CallContext, Policy } from '../../../host/policies/types.js';

const config = {
  capabilities: { browser: { domains_allowlist: ['*.example.org', 'host.test', 'localhost'], domains_denylist: ['*.evil.example.org'] } },
  network: { resolve: { 'host.test': '127.0.0.2' }, allow_private: ['127.0.0.1'] },
} as unknown as WebcapConfig;

const openManifest = { id: 'web.open', url_param: 'url' } as Manifest;
const clickManifest = { id: 'web.click' } as Manifest;

function call(url: string | undefined, manifest = openManifest): CallContext {
  return { capability: manifest.id, manifest, params: { url }, url: url ? new URL(url) : undefined, decisions: [], startedAt: 0 };
}

async function run(policy: Policy, c: CallContext): Promise<WebcapError | 'passed'> {
  try {
    await policy(c, async () => ({}));
    return 'passed';
  } catch (err) {
    expect(err).toBeInstanceOf(WebcapError);
    return err as WebcapError;
  }
}

const noDns = async (host: string): Promise<string[]> => { throw Object.assign(new Error('nope'), { code: 'ENOTFOUND', host }); };

describe('allowlistPolicy', () => {
  const policy = allowlistPolicy(config);

  it('lets allowlisted hosts through and records why', async () => {
    const c = call('https://www.example.org/a');
    expect(await run(policy, c)).toBe('passed');
    expect(c.decisions).toEqual([{ policy: 'allowlist', decision: 'allowed', reason: 'host "www.example.org" matches rule "*.example.org"', details: { host: 'www.example.org', rule: '*.example.org' } }]);
  });

  it('refuses a host no rule matches', async () => {
    const c = call('http://evil.test/');
    const err = await run(policy, c) as WebcapError;
    expect(err.code).toBe('not_allowlisted');
    expect(err.message).toBe('host "evil.test" is not allowed (no rule in domains_allowlist matches)');
    expect(err.details).toEqual({ host: 'evil.test' });
    expect(c.decisions[0]).toMatchObject({ policy: 'allowlist', decision: 'denied' });
  });

  it('refuses a denylisted host even when the allowlist matches', async () => {
    const err = await run(policy, call('http://x.evil.example.org/')) as WebcapError;
    expect(err.code).toBe('not_allowlisted');
    expect(err.message).toBe('host "x.evil.example.org" is denied by rule "*.evil.example.org" in domains_denylist');
    expect(err.details).toEqual({ host: 'x.evil.example.org', rule: '*.evil.example.org' });
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'view-source:https://www.example.org/'])('refuses %s as unsupported_scheme', async (url) => {
    const err = await run(policy, call(url)) as WebcapError;
    expect(err.code).toBe('unsupported_scheme');
  });

  it('passes about:blank, calls without a URL, and non-navigation calls', async () => {
    expect(await run(policy, call('about:blank'))).toBe('passed');
    expect(await run(policy, call(undefined))).toBe('passed');
    expect(await run(policy, call('chrome-error://chromewebdata/', clickManifest))).toBe('passed');
  });
});

describe('ssrfPolicy', () => {
  it('refuses a host that resolves to a private address not in allow_private', async () => {
    const c = call('http://host.test:8080/');
    const err = await run(ssrfPolicy(config, noDns), c) as WebcapError;
    expect(err).toBeInstanceOf(WebcapError);
    expect(err.code).toBe('ssrf_blocked');
    expect(err.message).toBe('host.test resolves to 127.0.0.2 (loopback), which is not in [network] allow_private');
    expect(err.details).toEqual({ host: 'host.test', address: '127.0.0.2', category: 'loopback' });
    expect(c.decisions[0]).toMatchObject({ policy: 'ssrf', decision: 'denied' });
  });

  it('refuses metadata and odd spellings of loopback', async () => {
    for (const url of ['http://169.254.169.254/', 'http://0x7f.0.0.2/', 'http://[::ffff:127.0.0.2]/', 'http://[fd00:ec2::254]/']) {
      expect((await run(ssrfPolicy(config, noDns), call(url)) as WebcapError).code).toBe('ssrf_blocked');
    }
  });

  it('lets allow_private addresses through', async () => {
    const c = call('http://127.0.0.1:3000/');
    expect(await run(ssrfPolicy(config, noDns), c)).toBe('passed');
    expect(c.decisions[0]).toMatchObject({ policy: 'ssrf', decision: 'allowed' });
  });

  it('treats a name that does not resolve as a failed navigation', async () => {
    const err = await run(ssrfPolicy(config, noDns), call('http://nowhere.example.org/')) as WebcapError;
    expect(err.code).toBe('navigation_failed');
  });

  it('resolves localhost for real and refuses it (loopback, ::1 or 127.0.0.1 only via allow_private)', async () => {
    const strict = { ...config, network: { resolve: {}, allow_private: [] } } as unknown as WebcapConfig;
    expect((await run(ssrfPolicy(strict), call('http://localhost/')) as WebcapError).code).toBe('ssrf_blocked');
  });

  it('ignores non-navigation calls and about:blank', async () => {
    expect(await run(ssrfPolicy(config, noDns), call('http://host.test/', clickManifest))).toBe('passed');
    expect(await run(ssrfPolicy(config, noDns), call('about:blank'))).toBe('passed');
  });
});
