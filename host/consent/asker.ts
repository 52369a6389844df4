// Who answers consent questions. Approvals come only from here (the user at a
// TTY, the embedding program's callback, or the configured fixed answer);
// nothing a page sends is ever treated as an answer.
import { createInterface } from 'node:readline';
import { plain, plainDetails } from './text.js';

export interface ConsentQuestion {
  capability: string;
  origin?: string;
  selector?: string;
  /** 'approval_always' | 'config_require' | 'password_field' | 'payment_field' | 'form_submit' | 'user_ask' | 'cookie_banner' | … */
  reason: string;
  /** The sentence shown to the user. */
  question: string;
  /** Shown with the question (e.g. a cookie banner's text); never read as an answer. */
  details?: Record<string, unknown>;
  /** For the consent record only (which session asked). */
  session?: string;
}

export interface ConsentAnswer { approved: boolean; answer?: string; remember?: boolean }

export type Asker = (q: ConsentQuestion) => Promise<boolean | ConsentAnswer>;

/**
 * Prompts on a terminal. One readline interface per question, closed after the
 * answer, so an idle host does not keep stdin open (the CLI could not exit).
 * End of input counts as "no": consent must be given, never assumed.
 */
export function ttyAsker(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Asker {
  return function ttyAsk(q) {
    return new Promise((resolve) => {
      output.write(`\nwebcap asks: ${plain(q.question, 2000)}\n`);
      for (const [key, text] of Object.entries(plainDetails(q.details ?? {}))) {
        output.write(`  ${key}: ${text}\n`);
      }
      const rl = createInterface({ input, output, terminal: false });
      let done = false;
      const finish = (approved: boolean) => {
        if (done) return;
        done = true;
        rl.close();
        resolve({ approved });
      };
      rl.on('close', () => finish(false));
      rl.question('Approve? [y/N] ', (line) => finish(/^(y|yes)$/i.test(line.trim())));
    });
  };
}

/**
 * The same answer every time: the CLI's --yes, or [consent] non_interactive.
 * Never remembered: it is a standing answer of the caller that set it, not a
 * person's decision about this scope, and must not answer for a later caller
 * (a daemon's next command, another host sharing the store).
 */
export function fixedAsker(approved: boolean, answer?: string): Asker {
  return async function fixedAsk() {
    return answer === undefined ? { approved, remember: false } : { approved, answer, remember: false };
  };
}

/** --yes wins (the user said so up front), then an embedder's callback, then a TTY, then config. */
export function chooseAsker(opts: {
  ask?: Asker; yes?: boolean; nonInteractive: 'deny' | 'approve'; isTTY: boolean;
}): Asker {
  if (opts.yes) return fixedAsker(true);
  if (opts.ask) return opts.ask;
  if (opts.isTTY) return ttyAsker();
  return fixedAsker(opts.nonInteractive === 'approve');
}
