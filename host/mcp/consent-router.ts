// One host serves many MCP sessions over HTTP, but a consent question must
// reach the person behind the client whose call raised it, never another
// client. A question about a session goes to the client that owns that
// session; otherwise to the client whose call is running (AsyncLocalStorage
// follows the call through the policy chain); otherwise to the fallback
// ([consent] non_interactive).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Asker, ConsentQuestion } from '../consent/asker.js';

export interface ConsentRoute {
  owns(session: string): boolean;
  ask: Asker;
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

  readonly ask: Asker = (q: ConsentQuestion) => {
    const owner = q.session ? [...this.routes].find((r) => r.owns(q.session!)) : undefined;
    const route = owner ?? this.current.getStore();
    return route && this.routes.has(route) ? route.ask(q) : this.fallback()(q);
  };
}
