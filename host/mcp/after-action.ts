// An action's answer shows what it did to the page, so the agent needs no
// second round trip for a snapshot: the changed lines of the compact view
// since the agent's last view ("diff"), the whole new view when the page
// navigated or none was seen yet, and nothing when nothing changed.
// `[mcp] after_action = "snapshot"` always sends the whole view; "none" sends
// nothing. Internal fields (element fingerprints for plan healing) stay in the
// chain and out of the answer.
import type { Manifest } from '../../manifests/load.js';
import type { Host } from '../host.js';

export type AfterAction = 'diff' | 'snapshot' | 'none';

/** Fields the host keeps for itself (the chain has them); an agent cannot use them. */
const INTERNAL_FIELDS = ['fingerprint'];

/** Tools that change the page and leave it open to look at (web.close leaves nothing to show). */
function showsPageAfter(m: Manifest): boolean {
  return m.effects.includes('page') && m.id !== 'web.close';
}

export function withoutInternal(result: Record<string, unknown>): Record<string, unknown> {
  const out = { ...result };
  for (const k of INTERNAL_FIELDS) delete out[k];
  return out;
}

/** The result with a `page` field saying what changed, or untouched when there is nothing to say. */
export async function withPageView(host: Host, mode: AfterAction, m: Manifest, sent: Record<string, unknown>, result: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (mode === 'none' || !showsPageAfter(m)) return result;
  const session = typeof result.session === 'string' ? result.session : typeof sent.session === 'string' ? sent.session : undefined;
  if (!session) return result;
  // The action succeeded: a page that cannot be read now (closed by its own script) does not undo that.
  const view = await host.pageView(session, mode).catch(() => undefined);
  if (!view?.changed) return result;
  const head = view.kind === 'diff' ? 'changes since your last view ("+ " new, "- " gone):' : `the page now (${view.url}):`;
  return { ...result, page: `${head}\n${view.text}` };
}
