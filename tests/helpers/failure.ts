// The WebcapError a call failed with; fails the test when the call succeeds or
// throws anything else.
import { expect } from 'vitest';
import { WebcapError } from '../../manifests/errors.js';

export async function failure(p: Promise<unknown>): Promise<WebcapError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(WebcapError);
    return err as WebcapError;
  }
  throw new Error('expected the call to fail');
}

/** The same for code that throws at once (config loading, parsers). */
export function failureSync(run: () => unknown): WebcapError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(WebcapError);
    return err as WebcapError;
  }
  throw new Error('expected the call to fail');
}
