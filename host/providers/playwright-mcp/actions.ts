// web.* → Playwright MCP tools. Selectors go to the server's `target` (it takes
// a CSS selector as well as a snapshot ref); what it has no tool for (extract,
// scroll, waiting for a selector, a profile's consent buttons) runs in the
// page through its browser_evaluate tool.
import { join } from 'node:path';
import { WebcapError } from '../../../manifests/errors.js';
import { hostRuleMatches } from '../../../manifests/net/hostname.js';
import { projectRoot } from '../../../manifests/load.js';
import { namedSelector, type SiteProfile } from '../../../manifests/site-profile.js';
import { loadProfiles } from '../../profiles/site-profiles.js';
import type { OwnerSessions, PwSession } from './backend.js';
import { PROVIDER } from './connection.js';
import { extractScript, PAGE_INFO, profileConsentScript, scrollScript, secretFieldScript, waitForSelectorScript } from './page-scripts.js';
import { screenshot } from './screenshot.js';

type Params = Record<string, unknown>;
type Action = (b: OwnerSessions, p: Params, timeoutMs: number) => Promise<Record<string, unknown>>;

let profiles: SiteProfile[] | undefined;
const allProfiles = () => (profiles ??= loadProfiles(join(projectRoot(), 'site-profiles')));

async function pageInfo(s: PwSession, timeoutMs: number) {
  const info = await s.conn.evaluate<{ url: string; title: string; status: number | null }>(PAGE_INFO, timeoutMs);
  if (info.status !== null && info.status >= 400) throw new WebcapError('http_error', `${info.url} answered HTTP ${info.status}`, { status: info.status, url: info.url, session: s.name });
  return { session: s.name, ...info };
}

/** CSS (and the server's own forms); `@name` is the site profile's named selector for the page's domain. */
async function target(s: PwSession, p: Params, timeoutMs: number): Promise<string> {
  const sel = p.selector;
  if (typeof sel !== 'string') {
    throw new WebcapError('invalid_params', `the ${PROVIDER} provider takes "selector" (refs, role and name belong to webcap's sidecar)`, { provider: PROVIDER, field: 'selector' });
  }
  const named = namedSelector(sel);
  if (!named) return sel;
  // This provider finds elements with CSS in the page: a Playwright chain after the name needs webcap's sidecar.
  if (named.rest) throw new WebcapError('invalid_params', `the ${PROVIDER} provider takes a named selector alone, not a chain ("${sel}"); webcap's sidecar takes both`, { provider: PROVIDER, selector: sel });
  const url = await s.conn.evaluate<string>('() => location.href', timeoutMs);
  const host = new URL(url).hostname;
  const profile = allProfiles().find((pr) => pr.domains.some((d) => hostRuleMatches(host, d)));
  const css = profile?.selectors?.[named.name];
  if (!css) throw new WebcapError('invalid_params', `no site-profile selector ${sel} for ${host}`, { selector: sel });
  return css;
}

export const ACTIONS: Record<string, Action> = {
  'web.open': async (b, p, ms) => {
    const s = await b.openSession(p.session as string | undefined, ms);
    try {
      await s.conn.tool('browser_navigate', { url: p.url }, ms);
      return await pageInfo(s, ms);
    } catch (err) {
      await b.closeSession(s);
      throw err;
    }
  },
  'web.navigate': async (b, p, ms) => {
    const s = b.session(p);
    await s.conn.tool('browser_navigate', { url: p.url }, ms);
    return pageInfo(s, ms);
  },
  'web.click': async (b, p, ms) => {
    const s = b.session(p);
    await s.conn.tool('browser_click', { target: await target(s, p, ms) }, ms);
    return { ok: true, session: s.name };
  },
  'web.fill': async (b, p, ms) => {
    const s = b.session(p);
    const field = await target(s, p, ms);
    await s.conn.tool('browser_type', { target: field, text: p.text }, ms);
    return { ok: true, field, ...(await secretMark(s, field, typeof p.text === 'string' ? p.text : '', ms)) };
  },
  'web.keypress': async (b, p, ms) => {
    const s = b.session(p);
    if (typeof p.selector === 'string') await s.conn.tool('browser_click', { target: await target(s, p, ms) }, ms);
    for (const key of p.keys as string[]) await s.conn.tool('browser_press_key', { key }, ms);
    const typed = (p.keys as string[]).filter((k) => [...k.replace(/^Shift\+/, '')].length === 1).map((k) => k.replace(/^Shift\+/, '')).join('');
    return { ok: true, session: s.name, ...(await secretMark(s, null, typed, ms)) };
  },
  'web.wait': async (b, p, ms) => {
    const s = b.session(p);
    const started = Date.now();
    if (typeof p.selector === 'string') {
      const found = await s.conn.evaluate<boolean>(waitForSelectorScript(await target(s, p, ms), ms), ms + 1000);
      if (!found) throw new WebcapError('timeout', `web.wait: ${p.selector} did not appear within ${ms} ms`, { selector: p.selector, provider: PROVIDER });
    } else if (typeof p.text === 'string') await s.conn.tool('browser_wait_for', { text: p.text }, ms);
    else if (typeof p.time === 'number') await s.conn.tool('browser_wait_for', { time: p.time / 1000 }, ms + 1000);
    else await s.conn.evaluate('() => new Promise((r) => document.readyState === "complete" ? r(true) : addEventListener("load", () => r(true)))', ms);
    return { ok: true, waited_ms: Date.now() - started };
  },
  'web.scroll': async (b, p, ms) => {
    const s = b.session(p);
    const selector = typeof p.selector === 'string' ? await target(s, p, ms) : undefined;
    const r = await s.conn.evaluate<{ missing?: boolean; scroll_y: number; scroll_height: number }>(scrollScript({ top: p.top as boolean, bottom: p.bottom as boolean, by: p.by as number, selector }), ms);
    if (r.missing) throw new WebcapError('selector_not_found', `web.scroll: nothing matches ${p.selector}`, { selector: p.selector });
    return { ok: true, scroll_y: r.scroll_y, scroll_height: r.scroll_height };
  },
  'web.extract': async (b, p, ms) => {
    const s = b.session(p);
    const schema: Record<string, string> = {};
    for (const [k, v] of Object.entries((p.schema as Record<string, string> | undefined) ?? {})) schema[k] = await target(s, { selector: v }, ms);
    const items = await s.conn.evaluate<unknown[]>(extractScript(await target(s, p, ms), schema, (p.limit as number | undefined) ?? 100_000), ms);
    return { items, count: items.length };
  },
  'web.screenshot': async (b, p, ms) => screenshot(b, p, ms),
  'web.snapshot': async (b, p, ms) => {
    const s = b.session(p);
    const { text } = await s.conn.tool('browser_snapshot', {}, ms);
    const snapshot = (/```yaml\n([\s\S]*?)```/.exec(text)?.[1] ?? text).trim();
    const info = await s.conn.evaluate<{ url: string; title: string }>(PAGE_INFO, ms);
    return { session: s.name, url: info.url, title: info.title, snapshot, refs: (snapshot.match(/\[ref=/g) ?? []).length, truncated: false };
  },
  'web.close': async (b, p) => ({ ok: true, ...(await b.closeSession(b.session(p))) }),
  'web.consent.handle': async (b, p, ms) => {
    const s = b.session(p);
    const policy = p.policy as string;
    const url = await s.conn.evaluate<string>('() => location.href', ms);
    const host = new URL(url).hostname;
    const profile = policy.startsWith('profile:')
      ? allProfiles().find((pr) => pr.name === policy.slice(8))
      : allProfiles().find((pr) => pr.domains.some((d) => hostRuleMatches(host, d)));
    if (!profile?.consent || profile.consent.iframe || profile.consent.shadow_host || !['accept', 'reject', 'auto'].concat(`profile:${profile.name}`).includes(policy)) {
      throw new WebcapError('capability_disabled', `web.consent.handle {policy: "${policy}"} on ${host} needs webcap's sidecar; the ${PROVIDER} provider presses a site profile's own buttons only`, { provider: PROVIDER, policy });
    }
    const prefer = policy === 'accept' || policy === 'reject' ? policy : preference(b.config.capabilities.browser.auto_accept_cookies, profile);
    const r = await s.conn.evaluate<{ found: boolean; choice?: 'accept' | 'reject'; button?: string }>(profileConsentScript(profile.consent, prefer, Math.min(ms, 3000)), ms + 1000);
    if (!r.found) return { accepted: false, details: { found: false, policy, cmp: null } };
    return { accepted: r.choice === 'accept', details: { found: true, cmp: `profile:${profile.name}`, button: r.button, choice: r.choice, policy } };
  },
};

/**
 * As the sidecar marks its results: text that landed in a password or payment
 * field (or a field that could not be read) is `secret_input`, and its value
 * goes to the host as `secret_value`, which learns it as a secret (hidden from
 * the chain, logs and every later answer) and strips it from the result.
 */
async function secretMark(s: PwSession, selector: string | null, typed: string, ms: number): Promise<Record<string, unknown>> {
  const field = await s.conn.evaluate<{ kind: string; value?: string }>(secretFieldScript(selector), ms).catch(() => ({ kind: 'unknown' as const, value: undefined }));
  if (field.kind === 'plain') return {};
  const value = field.value || typed;
  return { secret_input: true, ...(value ? { secret_value: value } : {}) };
}

/** The same leaning as the sidecar: reject unless the config says accept. */
function preference(setting: boolean | 'per_site', profile: SiteProfile): 'accept' | 'reject' {
  if (setting === true) return 'accept';
  if (setting === 'per_site') return profile.consent?.default ?? 'reject';
  return 'reject';
}
