// Healing: a replayed selector found nothing, so look for the
// element its recording fingerprinted, feature by feature in the order a
// person would trust them: role + accessible name, then label / placeholder /
// name attribute, then visible text, then the recorded CSS path. The first
// feature that matches exactly one element wins. Not a capability: the host's
// plan runner calls it on the session's current page after selector_not_found,
// and records what it chose as a `healed` chain entry.
import type { Page } from 'playwright';
import { defineTool } from './tool.js';
import type { Fingerprint } from './fingerprint.js';

export interface HealCandidate { feature: string; selector: string; count: number }

const quote = (s: string) => JSON.stringify(s);

/** Selectors to try, best first; each names the fingerprint feature it rests on. */
export function healSelectors(fp: Partial<Fingerprint>): Array<{ feature: string; selector: string }> {
  const out: Array<{ feature: string; selector: string }> = [];
  if (fp.role && fp.role !== 'generic' && fp.name) out.push({ feature: 'role+name', selector: `role=${fp.role}[name=${quote(fp.name)}s]` });
  if (fp.label) out.push({ feature: 'label', selector: `internal:label=${quote(fp.label)}s` });
  if (fp.placeholder) out.push({ feature: 'placeholder', selector: `${fp.tag ?? ''}[placeholder=${quote(fp.placeholder)}]` });
  if (fp.name_attr) out.push({ feature: 'name', selector: `${fp.tag ?? ''}[name=${quote(fp.name_attr)}]` });
  if (fp.text && !fp.text.endsWith('…')) out.push({ feature: 'text', selector: `text=${quote(fp.text)}` });
  if (fp.css) out.push({ feature: 'css_path', selector: fp.css });
  return out;
}

async function matchFingerprint(page: Page, fp: Partial<Fingerprint>): Promise<{ match?: HealCandidate; candidates: HealCandidate[] }> {
  const candidates: HealCandidate[] = [];
  for (const { feature, selector } of healSelectors(fp)) {
    const root = typeof fp.frame === 'string' ? page.frameLocator(fp.frame) : page;
    const count = await root.locator(selector).count().catch(() => 0);
    const c = { feature, selector, count };
    candidates.push(c);
    if (count === 1) return { match: c, candidates };
  }
  return { candidates };
}

export const healProbe = defineTool('webcap.heal_probe', async (ctx, params) => {
  const session = ctx.sessions.get(params.session);
  return { ...(await matchFingerprint(session.page, params.fingerprint)) };
});
