// Not a decision. The sidecar process starts with a call's first policy
// (governance.ts); once a web.open has also passed the cheap checks (enabled,
// params, allowlist, SSRF), the sidecar launches Chromium straight away, so
// the browser's start-up overlaps the slower steps still ahead: robots.txt
// fetches, politeness waits, the user's consent answer. A plain web.open (no
// session name, viewport, profile or client allowlist of its own) also has its
// context and page made meanwhile (sidecar/sessions/spare.ts). If a later
// policy refuses the call, the unused browser closes after 30 s (Sessions.prelaunch).
import { narrowedOf } from './narrowed.js';
import type { Policy } from './types.js';

export function warmUpPolicy(sidecar: { prelaunch(spare?: boolean): void }): Policy {
  return (call, next) => {
    if (call.capability === 'web.open') {
      const p = call.params;
      sidecar.prelaunch(p.session === undefined && p.viewport === undefined && p.profile === undefined && narrowedOf(call) === undefined);
    }
    return next();
  };
}
