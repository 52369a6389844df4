// The console's pending questions. Each has an unguessable id; the first
// answer wins (from the console, or from the terminal / MCP elicitation it
// races against) and every later one is refused: an id that never existed or
// was already answered changes nothing.
import { randomBytes } from 'node:crypto';
import type { ConsentQuestion } from '../consent/asker.js';

export interface Leaving {
  method?: string;
  origin?: string;
  path?: string;
  /** Field names only: values are shown as the chain shows them (params). */
  fields?: string[];
  /** The running call's parameters, redacted as the chain records them. */
  params?: unknown;
}

interface EvidenceView { url: string; title: string; element?: string; has_picture: boolean }

export interface PendingQuestion {
  id: string;
  question: ConsentQuestion;
  /** Who asked: a plan step (plan:LINE:COL), an MCP client, the CLI, a library caller. */
  asked_by: string;
  asked_at: string;
  leaving: Leaving;
  evidence?: EvidenceView;
  /** Whether "Approve for this origin for N minutes" applies (the question names an origin and may be remembered). */
  rememberable: boolean;
}

interface BoardAnswer { approved: boolean; remember_s?: number; answer?: string; channel: string }

export interface Posted {
  id: string;
  answered: Promise<BoardAnswer>;
  /** Answers it from elsewhere (another channel, a timeout, Stop): false if it was already answered. */
  settle(a: BoardAnswer): boolean;
  update(patch: Partial<Pick<PendingQuestion, 'evidence' | 'leaving'>>, png?: Buffer): void;
}

export class QuestionBoard {
  private readonly open = new Map<string, { view: PendingQuestion; png?: Buffer; resolve(a: BoardAnswer): void }>();
  private readonly listeners = new Set<() => void>();

  post(view: Omit<PendingQuestion, 'id' | 'asked_at'>): Posted {
    const id = randomBytes(16).toString('hex');
    let resolve!: (a: BoardAnswer) => void;
    const answered = new Promise<BoardAnswer>((r) => { resolve = r; });
    this.open.set(id, { view: { ...view, id, asked_at: new Date().toISOString() }, resolve });
    this.changed();
    return {
      id,
      answered,
      settle: (a) => this.answer(id, a) === 'answered',
      update: (patch, png) => {
        const entry = this.open.get(id);
        if (!entry) return;
        entry.view = { ...entry.view, ...patch };
        if (png) entry.png = png;
        this.changed();
      },
    };
  }

  /** 'unknown': no such pending question (never asked, or answered already): nothing happens. */
  answer(id: string, a: BoardAnswer): 'answered' | 'unknown' {
    const entry = this.open.get(id);
    if (!entry) return 'unknown';
    this.open.delete(id);
    entry.resolve(a);
    this.changed();
    return 'answered';
  }

  pending(): PendingQuestion[] { return [...this.open.values()].map((e) => e.view); }
  get(id: string): PendingQuestion | undefined { return this.open.get(id)?.view; }
  picture(id: string): Buffer | undefined { return this.open.get(id)?.png; }

  /** Every pending question about `session` (Stop): answered with `a`. */
  settleSession(session: string, a: BoardAnswer): number {
    const ids = [...this.open.values()].filter((e) => e.view.question.session === session).map((e) => e.view.id);
    for (const id of ids) this.answer(id, a);
    return ids.length;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) { try { l(); } catch { /* a broken viewer must not stop the question */ } }
  }
}
