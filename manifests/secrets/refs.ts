// Credentials by reference: `{{secret:NAME}}` and `{{totp:NAME}}` stand in
// for a vault entry in the text a call types. Both ends read them with these
// helpers: the host to check the names exist and to keep the references (not
// the values) in the chain, the sidecar to resolve them where the keys land.
import { WebcapError } from '../errors.js';

export type SecretKind = 'secret' | 'totp';
export interface SecretRef { kind: SecretKind; name: string }

/** Vault names: letters, digits, "_", "-" and "." (not first), up to 64. */
export const SECRET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/;
const REF = /\{\{(secret|totp):([A-Za-z0-9_-][A-Za-z0-9_.-]{0,63})\}\}/g;

export const refText = (r: SecretRef) => `{{${r.kind}:${r.name}}}`;

export function hasRefs(text: unknown): text is string {
  return typeof text === 'string' && text.includes('{{') && new RegExp(REF.source).test(text);
}

/** Text split into literal runs and references, in order. */
export function splitRefs(text: string): Array<string | SecretRef> {
  const out: Array<string | SecretRef> = [];
  let at = 0;
  for (const m of text.matchAll(REF)) {
    if (m.index! > at) out.push(text.slice(at, m.index));
    out.push({ kind: m[1] as SecretKind, name: m[2] });
    at = m.index! + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export function refsIn(text: string): SecretRef[] {
  return splitRefs(text).filter((p): p is SecretRef => typeof p !== 'string');
}

/** The strings of a call that may carry references: what web.fill, web.type, web.keypress and web.fill_form type. */
function typedTexts(capability: string, params: Record<string, unknown>): string[] {
  if (capability === 'web.fill' || capability === 'web.type') return typeof params.text === 'string' ? [params.text] : [];
  if (capability === 'web.keypress' && Array.isArray(params.keys)) return params.keys.filter((k): k is string => typeof k === 'string');
  if (capability === 'web.fill_form' && params.fields && typeof params.fields === 'object') return Object.values(params.fields).filter((v): v is string => typeof v === 'string');
  return [];
}

export function refsOfCall(capability: string, params: Record<string, unknown>): SecretRef[] {
  const seen = new Map<string, SecretRef>();
  for (const t of typedTexts(capability, params)) for (const r of refsIn(t)) seen.set(refText(r), r);
  return [...seen.values()];
}

/** Text with everything but its references replaced by `hidden` (one per run, so no length shows). */
export function keepOnlyRefs(text: string, hidden: string): string {
  return splitRefs(text).map((p) => (typeof p === 'string' ? hidden : refText(p))).join('');
}

/**
 * An origin as secrets are bound to it: scheme, host and port (the default
 * port left out, as URL.origin does, so http://a:80 and http://a agree).
 */
export function secretOrigin(text: string): string {
  let url: URL;
  try { url = new URL(text); } catch { throw new WebcapError('invalid_params', `origin "${text}": give scheme, host and port, e.g. https://example.org or http://127.0.0.1:8080`, { field: 'origin' }); }
  if (!/^https?:$/.test(url.protocol)) throw new WebcapError('invalid_params', `origin "${text}": only http and https origins can hold a secret`, { field: 'origin' });
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new WebcapError('invalid_params', `origin "${text}": an origin is scheme://host[:port] only (no path, query or user)`, { field: 'origin' });
  }
  return url.origin;
}

/** The origin of a URL a frame or a request has, or "null" (opaque: about:blank, data:, srcdoc). */
export function originOfUrl(url: string): string {
  try { return new URL(url).origin; } catch { return 'null'; }
}

/** The origin a request goes to, as secrets are bound: a websocket's is its http twin (ws → http, wss → https). */
export function requestOrigin(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol === 'ws:' || u.protocol === 'wss:') u.protocol = u.protocol === 'ws:' ? 'http:' : 'https:';
    return u.origin;
  } catch {
    return 'null';
  }
}
