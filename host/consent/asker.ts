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

export interface ConsentAnswer {
  approved: boolean;
  answer?: string;
  remember?: boolean;
  /** Remember this approval for this long instead of [consent] approval_ttl_s ("Approve for this origin for N minutes"). */
  remember_s?: number;
  /** Who answered: terminal, mcp_elicitation, console, callback, yes, config, … (recorded in the chain). */
  channel?: string;
  /** Nobody was asked: this is [consent] non_interactive speaking. A console, if one serves, may still reach a person. */
  nobody?: boolean;
  /** The question waited for the console until [consent] timeout_s. */
  timed_out?: boolean;
}

/** What an asker may be given with the question: withdraw it (another channel answered), or a page to send the person to. */
export interface AskContext {
  signal?: AbortSignal;
  /** This question's page in the console, when one serves (MCP URL-mode elicitation points here). */
  questionUrl?: string;
}

export type Asker = (q: ConsentQuestion, ctx?: AskContext) => Promise<boolean | ConsentAnswer>;

/**
 * Prompts on a terminal. One readline interface per question, closed after the
 * answer, so an idle host does not keep stdin open (the CLI could not exit).
 * End of input counts as "no": consent must be given, never assumed.
 */
export function ttyAsker(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Asker {
  return function ttyAsk(q, ctx) {
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
        resolve({ approved, channel: 'terminal' });
      };
      rl.on('close', () => finish(false));
      // Answered elsewhere (the console): the prompt goes away, and its "no" on close is never used.
      ctx?.signal?.addEventListener('abort', () => { output.write('\n(answered elsewhere)\n'); finish(false); }, { once: true });
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
    return answer === undefined ? { approved, remember: false, channel: 'yes' } : { approved, answer, remember: false, channel: 'yes' };
  };
}

/**
 * [consent] non_interactive, used when no terminal and no form can reach a
 * person. "deny" is not a person's no: it says nobody was asked, so a console
 * that serves may still put the question to someone.
 */
export function nobodyAsker(nonInteractive: 'deny' | 'approve'): Asker {
  return async function nobodyAsk() {
    return nonInteractive === 'approve' ? { approved: true, channel: 'config' } : { approved: false, channel: 'config', nobody: true };
  };
}

/** --yes wins (the user said so up front), then an embedder's callback, then a TTY, then config. */
export function chooseAsker(opts: {
  ask?: Asker; yes?: boolean; nonInteractive: 'deny' | 'approve'; isTTY: boolean;
}): Asker {
  if (opts.yes) return fixedAsker(true);
  if (opts.ask) return opts.ask;
  if (opts.isTTY) return ttyAsker();
  return nobodyAsker(opts.nonInteractive);
}
