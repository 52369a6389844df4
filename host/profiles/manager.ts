// Persistent profiles: web.open {profile}
// restores a profile's storage for the origins the allowlist allows now; when
// that session closes, the storage is saved only after the user approves
// ("save profile NAME for origins …?", remembered for approval_ttl_s). The
// chain records restores and saves with origins and counts, never values.
import type { ConsentGate } from '../consent/gate.js';
import type { WebcapConfig } from '../config/types.js';
import { profileKey, seal, unseal } from './crypto.js';
import { counts, EMPTY, merge, originsOf, split, type StorageState } from './state.js';
import { ageDays, checkName, readEnvelope, writeEnvelope, type ProfileSummary } from './store.js';

type RecordEvent = (event: string, session: string, detail: { [k: string]: unknown }, planId?: string) => Promise<void>;

const aadOf = (s: ProfileSummary) => Buffer.from(JSON.stringify([s.name, s.saved_at, s.origins, s.cookies, s.local_storage_items]));

export class Profiles {
  /** session → the profile it was opened with, and the part of it kept off the session (not allowlisted now). */
  private readonly bySession = new Map<string, { name: string; kept: StorageState }>();

  constructor(private readonly config: WebcapConfig, private readonly gate: ConsentGate, private readonly record: RecordEvent) {}

  has(session: string | undefined): boolean { return Boolean(session && this.bySession.has(session)); }
  sessions(): string[] { return [...this.bySession.keys()]; }

  /** The storage to open the session with (checks the key first: no key, no profile at all). */
  load(name: string): { state: StorageState; kept: StorageState; note: { [k: string]: unknown } } {
    checkName(name);
    const key = profileKey(this.config.profiles.key_env);
    const envelope = readEnvelope(this.config, name);
    if (!envelope) return { state: EMPTY, kept: EMPTY, note: { profile: name, found: false } };
    const all = JSON.parse(unseal(envelope, key, aadOf(envelope), `profile "${name}"`).toString('utf8')) as StorageState;
    const age = ageDays(envelope.saved_at);
    if (age > this.config.profiles.max_age_days) {
      // Too old to restore, but not ours to delete: it stays on disk until saved over or deleted.
      return { state: EMPTY, kept: all, note: { profile: name, found: true, restored: false, reason: `older than max_age_days (${age.toFixed(1)} > ${this.config.profiles.max_age_days})` } };
    }
    const { allowed, kept } = split(all, this.config.capabilities.browser);
    return { state: allowed, kept, note: { profile: name, found: true, restored: true, origins: originsOf(allowed), ...counts(allowed), origins_left_on_disk: originsOf(kept).length } };
  }

  async opened(session: string, name: string, kept: StorageState, note: { [k: string]: unknown }, planId?: string): Promise<void> {
    this.bySession.set(session, { name, kept });
    await this.record('profile_restored', session, note, planId);
  }

  /** Called with the session's storage as it closes. Writes only after approval. */
  async closed(session: string, state: StorageState | undefined, planId?: string): Promise<void> {
    const entry = this.bySession.get(session);
    if (!entry) return;
    this.bySession.delete(session);
    if (!state) return;
    const merged = merge(state, entry.kept);
    const origins = originsOf(merged);
    const answer = await this.gate.confirm({
      capability: 'web.close', session, reason: 'profile_save', origin: `profile:${entry.name}`,
      question: `Save browser profile "${entry.name}" (cookies and site storage for ${origins.join(', ') || 'no origin'}) so a later web.open {profile: "${entry.name}"} is signed in?`,
      details: { profile: entry.name, origins: origins.join(', ') },
    });
    if (!answer.approved) {
      await this.record('profile_not_saved', session, { profile: entry.name, origins, reason: 'the user did not approve saving it' }, planId);
      return;
    }
    const summary: ProfileSummary = { name: entry.name, saved_at: new Date().toISOString(), origins, ...counts(merged) };
    const sealed = seal(Buffer.from(JSON.stringify(merged)), profileKey(this.config.profiles.key_env), aadOf(summary));
    writeEnvelope(this.config, { v: 1, ...summary, ...sealed });
    await this.record('profile_saved', session, { profile: entry.name, origins, cookies: summary.cookies, local_storage_items: summary.local_storage_items }, planId);
  }
}

