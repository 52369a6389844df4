// Main-frame refs print bare after a navigation; iframe refs keep their prefix.
import { describe, expect, it } from 'vitest';
import { bareMainFrameRefs, mainFramePrefix } from '../../../sidecar/refs/main-frame.js';

const AFTER_NAVIGATION = [
  '- generic [ref=f2e1]:',
  '  - button "Subscribe" [ref=f2e4]',
  '  - iframe [ref=f2e7]:',
  '    - button "Inner action" [ref=f3e2]',
  '  - link "Next page" [ref=f2e9]',
].join('\n');

describe('main-frame refs', () => {
  it('finds the prefix outside every iframe block and strips only it', () => {
    expect(mainFramePrefix(AFTER_NAVIGATION)).toBe('f2');
    expect(bareMainFrameRefs(AFTER_NAVIGATION, 'f2')).toBe([
      '- generic [ref=e1]:',
      '  - button "Subscribe" [ref=e4]',
      '  - iframe [ref=e7]:',
      '    - button "Inner action" [ref=f3e2]',
      '  - link "Next page" [ref=e9]',
    ].join('\n'));
  });

  it('a page that never navigated has bare refs already; an iframe first does not lend its prefix', () => {
    expect(mainFramePrefix('- iframe [ref=e1]:\n  - button "In" [ref=f1e1]\n- button "Out" [ref=e2]')).toBe('');
    expect(mainFramePrefix('- iframe [ref=f4e1]:\n  - button "In" [ref=f5e1]\n- button "Out" [ref=f4e2]')).toBe('f4');
  });
});
