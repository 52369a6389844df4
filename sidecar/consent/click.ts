// Presses a banner button, then gives the banner a moment to go away so the
// next step (a fill, a click) does not land on the overlay.
import type { Locator } from 'playwright';

const HIDE_WAIT_MS = 3000;

export async function press(button: Locator, banner: Locator | undefined, timeout: number): Promise<boolean> {
  await button.click({ timeout });
  const wait = Math.min(timeout, HIDE_WAIT_MS);
  // A button in an iframe that the page removes makes waitFor throw: that is "gone" too.
  const gone = (l: Locator) => l.waitFor({ state: 'hidden', timeout: wait }).then(() => true, (err: Error) => err.name !== 'TimeoutError');
  const [buttonGone, bannerGone] = await Promise.all([gone(button), banner ? gone(banner) : Promise.resolve(true)]);
  return buttonGone && bannerGone;
}
