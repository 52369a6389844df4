// A secret the vault lacks: entered by a person on the console's page when
// the calling client can send them there (never through the client or the model).
import type { WebcapConfig } from '../config/types.js';
import type { ConsoleHub } from '../console/hub.js';
import type { HostOptions } from '../host.js';
import type { CallContext } from '../policies/types.js';
import type { Redactor } from '../redact/redactor.js';
import { askForMissingSecret, proposedOrigin } from '../secrets/missing.js';
import type { MissingHandling } from '../secrets/terminal.js';
import type { ChainWriter } from './chain-writer.js';

export function missingSecrets(config: WebcapConfig, options: HostOptions, hub: ConsoleHub, chain: ChainWriter, redactor: Redactor): MissingHandling {
  const pageUrlOf = (session: string | undefined) => hub.sessions().find((v) => v.name === session)?.url;
  return {
    ask: askForMissingSecret({
      config, desk: hub.secrets, entryUrl: (id) => hub.secretUrl(id), serving: () => hub.url !== undefined, elicitUrl: options.elicitUrl, pageUrl: pageUrlOf,
      learn: (v) => redactor.addSecret(v),
      record: async (event, session, detail) => { await chain.append({ kind: 'event', ...chain.viaFor(session), session, result: { event, ...detail } }); },
    }),
    originOf: (call: CallContext) => proposedOrigin(pageUrlOf(call.session)),
  };
}
