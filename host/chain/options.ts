// The chain's options from [chain]: a signer when signing_key_env is set.
import type { WebcapConfig } from '../config/types.js';
import type { ChainOptions } from './chain.js';
import { signerFromEnv } from './checkpoint.js';

export function chainOptions(config: WebcapConfig): ChainOptions {
  const { signing_key_env, checkpoint_every } = config.chain;
  return signing_key_env ? { signer: signerFromEnv(signing_key_env), checkpointEvery: checkpoint_every } : {};
}
