// The person's input during a hand-off (web.handoff), forwarded from the
// console: mouse, wheel, keys and text, dispatched through Playwright's
// mouse and keyboard (CDP Input.dispatch*). Only a session being handed off
// takes input; the keys are counted, never kept.
import type { Page } from 'playwright';
import type { PersonInput } from '../manifests/wire.js';

export interface Handing { page: Page; keys: number; origins: Set<string>; lastInput: number }

const MAX_TEXT = 1000;
const MAX_SCROLL = 10_000;
// Playwright key names: a single character, or named keys with modifiers (Control+a, Shift+Tab, ArrowLeft).
const KEY = /^(?:(?:Control|Alt|Shift|Meta)\+)*(?:[A-Za-z][A-Za-z0-9]{0,15}|.)$/u;

/** Sessions a person drives now, by name. */
export const handing = new Map<string, Handing>();

/** Dispatches what the person did, in order; returns how many inputs reached the page. */
export async function dispatchInput(session: string, events: PersonInput[]): Promise<number> {
  const h = handing.get(session);
  if (!h) return 0;
  const { page } = h;
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  const clampX = (x: number) => Math.max(0, Math.min(size.width - 1, Number(x) || 0));
  const clampY = (y: number) => Math.max(0, Math.min(size.height - 1, Number(y) || 0));
  let delivered = 0;
  for (const e of events) {
    if (handing.get(session) !== h) break;   // handed back meanwhile: nothing more reaches the page
    h.lastInput = Date.now();
    try {
      switch (e.type) {
        case 'move': await page.mouse.move(clampX(e.x), clampY(e.y)); break;
        case 'down':
        case 'up':
          await page.mouse.move(clampX(e.x), clampY(e.y));
          await page.mouse[e.type]({ button: e.button === 'right' || e.button === 'middle' ? e.button : 'left' });
          break;
        case 'wheel':
          await page.mouse.move(clampX(e.x), clampY(e.y));
          await page.mouse.wheel(Math.max(-MAX_SCROLL, Math.min(MAX_SCROLL, Number(e.dx) || 0)), Math.max(-MAX_SCROLL, Math.min(MAX_SCROLL, Number(e.dy) || 0)));
          break;
        case 'key':
          if (typeof e.key !== 'string' || !KEY.test(e.key)) continue;
          await page.keyboard.press(e.key);
          h.keys += 1;
          break;
        case 'text': {
          if (typeof e.text !== 'string') continue;
          const text = [...e.text].slice(0, MAX_TEXT).join('');
          await page.keyboard.type(text);
          h.keys += [...text].length;
          break;
        }
        default: continue;
      }
      delivered += 1;
    } catch {
      // An unknown key name or a page that navigated away mid-input: the next input still goes.
    }
  }
  return delivered;
}
