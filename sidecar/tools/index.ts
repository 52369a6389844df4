// Every sidecar handler, one per manifest id (main.ts checks the two agree).
import type { Tool } from '../tool.js';
import { click, fill, keypress } from './interaction.js';
import { consentHandle } from './consent.js';
import { cookiesGet, cookiesSet } from './cookies.js';
import { extract } from './extract.js';
import { close, navigate, open } from './navigation.js';
import { screenshot } from './screenshot.js';
import { scroll, wait } from './waiting.js';
import { snapshot } from './snapshot.js';
import { findByText, pageContent, queryElements } from './page-content.js';

export const tools: Tool[] = [open, navigate, close, click, fill, keypress, wait, scroll, extract, screenshot, cookiesGet, cookiesSet, consentHandle,
  snapshot, pageContent, queryElements, findByText];
