// Dialogs (alert, confirm, prompt, beforeunload) block the page until someone
// answers, and no person is watching a headless browser: the configured policy
// answers at once ([capabilities.browser] dialogs = "dismiss" | "accept"), and
// every answer is logged so the agent learns a dialog appeared and what it said.
// beforeunload is always accepted: refusing it would leave the agent stuck on a
// page it asked to leave.
import type { Dialog, Page } from 'playwright';
import type { EventLog } from './page-events.js';

type DialogPolicy = 'dismiss' | 'accept';

export interface DialogEntry {
  type: string;                 // alert | confirm | prompt | beforeunload
  message: string;
  action: 'accepted' | 'dismissed';
  /** For a prompt the policy accepted: the text it answered with (the page's default value). */
  answer?: string;
  tab: string;
  url: string;
  at: string;
}

export function answerDialogs(page: Page, tab: string, policy: DialogPolicy, log: EventLog<DialogEntry>): void {
  page.on('dialog', (dialog) => {
    const type = dialog.type();
    const accept = type === 'beforeunload' || policy === 'accept';
    // Logged before answering: the action that raised it may return as soon as it is answered.
    const entry: DialogEntry = { type, message: dialog.message().slice(0, 2000), action: accept ? 'accepted' : 'dismissed', tab, url: page.url(), at: new Date().toISOString() };
    if (accept && type === 'prompt') entry.answer = dialog.defaultValue();
    log.push(entry);
    void respond(dialog, accept, entry.answer);
  });
}

// A dialog whose page closed meanwhile cannot be answered; what the policy chose is still what happened.
async function respond(dialog: Dialog, accept: boolean, text: string | undefined): Promise<void> {
  if (accept) await dialog.accept(text).catch(() => undefined);
  else await dialog.dismiss().catch(() => undefined);
}
