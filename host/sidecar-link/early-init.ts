// The early sidecar's init, computed from `webcap mcp`'s own command line
// before the host's modules load (bin/webcap.js): the config and the site
// profiles only, so Chromium launches while the host is still importing.
// Anything unusual (no readable config, another provider) answers undefined
// and the host sends init itself, as without an early sidecar.
import type { SidecarInit } from '../../manifests/wire.js';
import { loadConfig } from '../config/load.js';
import { sidecarInit } from './sidecar-init.js';

/** `--config FILE` / `--config=FILE` from argv after `mcp` (else $WEBCAP_CONFIG or ./agent_config.toml, as the CLI does). */
export function earlyInit(args: string[]): SidecarInit | undefined {
  let path: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--config') path = args[i + 1];
    else if (args[i].startsWith('--config=')) path = args[i].slice('--config='.length);
  }
  try {
    const config = loadConfig(path);
    if (config.capabilities.browser.provider !== 'sidecar') return undefined;
    return sidecarInit(config);
  } catch {
    return undefined; // the host loads the config again and reports what is wrong
  }
}
