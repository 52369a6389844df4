// Resolving `{{secret:NAME}}` and `{{totp:NAME}}` where the keys land. The
// origin is the target frame's, as the browser reports it (frame.url(), not
// anything the page's scripts can redefine). The host checks it against the
// secret's origins and asks the user; the origin is read again once the
// answer is back, so a frame that navigated meanwhile gets nothing. A TOTP
// code is made here, at that moment (RFC 6238, otpauth package).
import type { Frame, Locator } from 'playwright';
import { toWebcapError, WebcapError } from '../../manifests/errors.js';
import { hasRefs, originOfUrl, refText, splitRefs, type SecretRef } from '../../manifests/secrets/refs.js';
import type { PageCall } from '../tool.js';
import { secretBook } from './book.js';
import { otpauth } from '../lazy-packages.js';

/** The frame an element lives in, from the browser's side. */
export async function frameOf(target: Locator, timeout: number): Promise<Frame> {
  const handle = await target.elementHandle({ timeout });
  const frame = await handle?.ownerFrame();
  await handle?.dispose().catch(() => undefined);
  if (!frame) throw new WebcapError('selector_not_found', 'the field left the page before its secret could be typed', {});
  return frame;
}

/** `text` with every reference replaced by its value for this frame; text without references is returned as it is. */
export async function resolveRefs(call: PageCall, capability: string, text: string, frame: Frame): Promise<string> {
  if (!hasRefs(text)) return text;
  let out = '';
  for (const part of splitRefs(text)) out += typeof part === 'string' ? part : await valueFor(call, capability, part, frame);
  return out;
}

async function valueFor(call: PageCall, capability: string, ref: SecretRef, frame: Frame): Promise<string> {
  const origin = originOfUrl(frame.url());
  const answer = await call.ctx.resolveSecret({ session: call.session.name, capability, kind: ref.kind, name: ref.name, origin });
  if (!answer.ok) throw toWebcapError(answer.error);
  // The host checked the origin; this checks it again, now, after the wait for the user's answer.
  const now = originOfUrl(frame.url());
  if (frame.isDetached() || now !== origin || !answer.origins.includes(now)) {
    throw new WebcapError('consent_denied', `${refText(ref)} is not for this site: the frame moved to ${now} while the user was asked; nothing was typed`, { reason: 'secret_origin', vault_name: ref.name, origin: now });
  }
  const value = ref.kind === 'totp' ? otpauth().URI.parse(answer.value).generate() : answer.value;
  secretBook.remember(ref, value, answer.origins);
  return value;
}
