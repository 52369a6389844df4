// The causal chain as governance writes to it: opened once per host (while
// the rest starts), labelled by whoever owns the session an entry is about.
import { CausalChain, type AppendOptions, type ChainAppend, type ChainEntry } from '../chain/chain.js';
import { chainOptions } from '../chain/options.js';
import type { WebcapConfig } from '../config/types.js';
import type { HostOptions } from '../host.js';

export interface ChainWriter {
  readonly ready: Promise<CausalChain>;
  append(entry: ChainAppend, options?: AppendOptions): Promise<ChainEntry>;
  /** For entries about what already happened (events, blocked requests, a call's result): the next durable append (an intent) carries them to disk. */
  readonly after: AppendOptions;
  /** Entries not written by the audit policy (consent, events, blocked requests) are labelled by whoever owns the session. */
  viaFor(session: string | undefined | null): { via?: Record<string, string> };
  /** One event entry about a session. */
  event(event: string, session: string, detail: { [k: string]: unknown }): Promise<void>;
}

export function openChainWriter(config: WebcapConfig, entryVia: HostOptions['entryVia']): ChainWriter {
  const ready = CausalChain.open(config.chain.path, chainOptions(config));
  ready.catch(() => undefined);
  const append = async (entry: ChainAppend, options?: AppendOptions) => (await ready).append(entry, options);
  const viaFor = (session: string | undefined | null) => {
    const via = entryVia?.(session ?? undefined);
    return via && Object.keys(via).length ? { via } : {};
  };
  return {
    ready, append, viaFor,
    after: { durable: false },
    event: async (event, session, detail) => { await append({ kind: 'event', ...viaFor(session), session, result: { event, ...detail } }); },
  };
}
