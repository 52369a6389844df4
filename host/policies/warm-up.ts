// Not a decision. The sidecar process starts with a call's first policy
// (governance.ts); once a web.open has also passed the cheap checks (enabled,
// params, allowlist, SSRF), the sidecar launches Chromium straight away, so
// the browser's start-up overlaps the slower steps still ahead: robots.txt
// fetches, politeness waits, the user's consent answer. If a later policy
// refuses the call, the unused browser closes after 30 s (Sessions.prelaunch).
import type { Policy } from './types.js';

export function warmUpPolicy(sidecar: { prelaunch(): void }): Policy {
  return (call, next) => {
    if (call.capability === 'web.open') sidecar.prelaunch();
    return next();
  };
}
