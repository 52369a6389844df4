// One host serves many MCP sessions over HTTP, but a consent question must
// reach the person behind the client whose call raised it, never another
// client. A question about a session goes to the client that owns that
// session; otherwise to the client whose call is running (AsyncLocalStorage
// follows the call through the policy chain); otherwise to the fallback
// ([consent] non_interactive).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AskContext, Asker, ConsentQuestion } from '../consent/asker.js';
import type { UrlElicitor } from '../secrets/missing.js';

interface ConsentRoute {
  owns(session: string): boolean;
  ask: Asker;
  /** Sends this client's person to a page (URL-mode elicitation), if the client can. */
  elicitUrl?: UrlElicitor;
  /** Recorded on chain entries this route's client caused. */
  via?: Record<string, string>;
}

export class ConsentRouter {
  private readonly current = new AsyncLocalStorage<ConsentRoute>();
  private readonly routes = new Set<ConsentRoute>();

  constructor(private readonly fallback: () => Asker) {}

  register(route: ConsentRoute): () => void {
    this.routes.add(route);
    return () => this.routes.delete(route);
  }

  /** Runs a call so that questions it raises find their way back to `route`. */
  run<T>(route: ConsentRoute, body: () => Promise<T>): Promise<T> {
    return this.current.run(route, body);
  }

  readonly ask: Asker = (q: ConsentQuestion, ctx?: AskContext) => {
    const route = this.routeFor(q.session);
    return route ? route.ask(q, ctx) : this.fallback()(q, ctx);
  };

  /** A page for the person behind the client whose call (or session) this is; 'unsupported' when none can show it. */
  readonly elicitUrl: UrlElicitor = async (req) => {
    const route = this.routeFor(req.session);
    return route?.elicitUrl ? route.elicitUrl(req) : 'unsupported';
  };

  readonly viaFor = (session: string | undefined): Record<string, string> | undefined => this.routeFor(session)?.via;

  private routeFor(session: string | undefined): ConsentRoute | undefined {
    const owner = session ? [...this.routes].find((r) => r.owns(session)) : undefined;
    // A question the sidecar raises runs in no call's context (sidecar-client.ts): with one client it can only be that client's.
    const only = this.routes.size === 1 ? [...this.routes][0] : undefined;
    const route = owner ?? this.current.getStore() ?? only;
    return route && this.routes.has(route) ? route : undefined;
  }
}
