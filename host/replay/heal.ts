// Healing replay. When a call's selector finds nothing, the runner
// asks the sidecar for the element the recording fingerprinted (role + name,
// label / placeholder / name, text, CSS path; the first feature with exactly
// one match wins), re-runs the call on it through the same governed path,
// and records a `healed` chain entry. A selector healed once is used for the
// rest of the run. On for calls marked {:heal true} (every element action of
// an exported plan) and, with --heal, for every call with a selector.
import { WebcapError, toWebcapError } from '../../manifests/errors.js';
import type { ChainAppend } from '../chain/entry.js';
import type { CallResult } from '../policies/types.js';
import { readChainEntries } from './chain-calls.js';

export interface HealCandidate { feature: string; selector: string; count: number }
export type Fingerprint = Record<string, unknown>;

export interface HealDeps {
  /** owner: the plan run whose session it probes (absent: the host's default caller). */
  probe(fingerprint: Fingerprint, session: string | undefined, owner?: string): Promise<{ match?: HealCandidate; candidates: HealCandidate[] }>;
  record(entry: ChainAppend): Promise<void>;
  /** For hand-written plans: the chain the host records to, where earlier runs left fingerprints. */
  chainPath: string;
}

export interface Heal { line: number; column: number; capability: string; old_selector: string; new_selector: string; feature: string }

export interface HealOptions { force?: boolean; onHeal?(heal: Heal): void }

type Where = { line: number; column: number };
type CallOptions = { heal?: unknown; fingerprint?: unknown } | undefined;

export function makeHealer(deps: HealDeps | undefined, opts: HealOptions, planId: string) {
  const healed = new Map<string, { selector: string; feature: string }>();
  const enabled = (o: CallOptions) => Boolean(deps) && (o?.heal === true || (opts.force === true && o?.heal !== false));

  const note = async (capability: string, params: Record<string, unknown>, where: Where, old: string, to: { selector: string; feature: string }, extra: Record<string, unknown>) => {
    await deps!.record({
      kind: 'healed', plan_id: planId, capability, session: (params.session as string | undefined) ?? null,
      params: { old_selector: old, new_selector: to.selector, line: where.line, column: where.column },
      result: { matched: [to.feature], ...extra },
      decision: { decision: 'healed', policy: 'heal', reason: `selector ${old} found nothing; the recorded fingerprint's ${to.feature} matched one element` },
    });
    opts.onHeal?.({ ...where, capability, old_selector: old, new_selector: to.selector, feature: to.feature });
  };

  return async function run(capability: string, params: Record<string, unknown>, options: CallOptions, where: Where,
    invoke: (p: Record<string, unknown>) => Promise<CallResult>): Promise<CallResult> {
    const selector = typeof params.selector === 'string' ? params.selector : undefined;
    if (!selector || !enabled(options)) return invoke(params);
    const known = healed.get(selector);
    if (known) {
      await note(capability, params, where, selector, known, { reused: true });
      return invoke({ ...params, selector: known.selector });
    }
    try {
      return await invoke(params);
    } catch (err) {
      const e = toWebcapError(err);
      if (e.code !== 'selector_not_found') throw e;
      const fp = (options?.fingerprint as Fingerprint | undefined) ?? recordedFingerprint(deps!.chainPath, selector);
      if (!fp) throw new WebcapError('selector_not_found', `${e.message}; no fingerprint recorded for it, so it cannot heal`, e.details);
      const { match, candidates } = await deps!.probe(fp, params.session as string | undefined);
      const tried = candidates.map((c) => `${c.feature} ${c.selector} (${c.count})`).join('; ');
      if (!match) {
        throw new WebcapError('selector_not_found', `${selector} found nothing and no recorded feature matches exactly one element; candidates: ${tried || 'none'}`, { selector, candidates });
      }
      healed.set(selector, match);
      await note(capability, params, where, selector, match, { candidates });
      return invoke({ ...params, selector: match.selector });
    }
  };
}

/** The latest fingerprint the chain holds for an element acted on with this selector. */
function recordedFingerprint(chainPath: string, selector: string): Fingerprint | undefined {
  let entries;
  try { entries = readChainEntries(chainPath); } catch { return undefined; }
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    const fp = (e.result as { fingerprint?: Fingerprint } | null)?.fingerprint;
    if (fp && (e.params as { selector?: unknown } | null)?.selector === selector) return fp;
  }
  return undefined;
}
