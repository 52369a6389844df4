// Screenshots paint over what shows a vault value webcap typed: the fields
// holding one (in any frame) and any element whose text the page copied it
// into. Playwright's `mask` draws a box over each matching element.
import type { Locator, Page } from 'playwright';
import { secretBook } from './book.js';

export async function secretMasks(page: Page): Promise<Locator[]> {
  const values = secretBook.values();
  if (values.length === 0) return [];
  const masks: Locator[] = [];
  for (const frame of page.frames()) {
    const holding = await frame.locator('input, textarea').evaluateAll((els, vs) => {
      const out: number[] = [];
      for (let i = 0; i < els.length; i++) {
        const v = (els[i] as HTMLInputElement).value;
        if (v && vs.some((s) => v.includes(s))) out.push(i);
      }
      return out;
    }, values).catch(() => [] as number[]);
    for (const i of holding) masks.push(frame.locator('input, textarea').nth(i));
    for (const v of values) masks.push(frame.getByText(v));
  }
  return masks;
}
