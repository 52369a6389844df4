// Requests the browser refused, summarised per call: the audit entry of the
// call that caused them is followed by one network_blocked entry per session.
import type { BlockedRequest } from '../../manifests/wire.js';
import type { Redactor } from '../redact/redactor.js';
import type { ChainWriter } from './chain-writer.js';

interface Summary { count: number; hosts: Set<string>; examples: string[] }

export class BlockedRequests {
  private readonly bySession = new Map<string, Summary>();

  constructor(private readonly chain: ChainWriter, private readonly redactor: Redactor) {}

  note(b: BlockedRequest): void {
    const s = this.bySession.get(b.session) ?? { count: 0, hosts: new Set<string>(), examples: [] };
    s.count += 1;
    s.hosts.add(`${b.host} (${b.code})`);
    if (s.examples.length < 5) s.examples.push(this.redactor.redact(`${b.kind} ${b.url}`) as string);
    this.bySession.set(b.session, s);
  }

  async flush(planId: string | undefined): Promise<void> {
    for (const [session, s] of this.bySession) {
      this.bySession.delete(session);
      await this.chain.append({ kind: 'network_blocked', ...this.chain.viaFor(session), plan_id: planId ?? null, session, result: { count: s.count, hosts: [...s.hosts], examples: s.examples } }, this.chain.after);
    }
  }
}
