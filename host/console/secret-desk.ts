// Secrets a running call needs and the vault lacks, waiting for a person to
// enter them on the console's entry page (secret-entry.ts). Each request has
// an unguessable id; what is shown about it is its name, kind, the origins
// proposed and who asked — never a value, which passes through `store` once
// (into the vault) and is not kept here.
import { randomBytes } from 'node:crypto';
import type { SecretKind } from '../../manifests/secrets/refs.js';

interface SecretRequestView {
  id: string;
  name: string;
  kind: SecretKind;
  /** The origins the page proposes to bind it to (the site the call is on); the person confirms or edits them. */
  origins: string[];
  /** Which call wants it: "web.fill by MCP client NAME". */
  asked_by: string;
}

type SecretEntryOutcome = 'stored' | 'cancelled';

export interface SecretRequest {
  id: string;
  /** Settles once: stored by the person, or cancelled (by the person, a timeout, the client declining). */
  outcome: Promise<SecretEntryOutcome>;
  cancel(): void;
}

interface Pending { view: SecretRequestView; store: (value: string, origins: string[]) => void; settle(o: SecretEntryOutcome): void }

export class SecretDesk {
  private readonly pending = new Map<string, Pending>();

  open(request: Omit<SecretRequestView, 'id'>, store: (value: string, origins: string[]) => void): SecretRequest {
    const id = randomBytes(16).toString('hex');
    let settle!: (o: SecretEntryOutcome) => void;
    const outcome = new Promise<SecretEntryOutcome>((resolve) => { settle = resolve; });
    this.pending.set(id, { view: { ...request, id }, store, settle: (o) => { if (this.pending.delete(id)) settle(o); } });
    return { id, outcome, cancel: () => this.pending.get(id)?.settle('cancelled') };
  }

  view(id: string): SecretRequestView | undefined {
    return this.pending.get(id)?.view;
  }

  /**
   * The person's entry: stored (the request settles) or refused with the
   * vault's reason (the request stays open so the person can correct it).
   * Throws what `store` throws; returns false for a request that is not open.
   */
  enter(id: string, value: string, origins: string[]): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.store(value, origins);
    p.settle('stored');
    return true;
  }

  cancel(id: string): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    p.settle('cancelled');
    return true;
  }
}
