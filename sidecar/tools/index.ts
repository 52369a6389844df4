// Every sidecar handler, one per manifest id (main.ts checks the two agree).
import type { Tool } from '../tool.js';
import { click, fill, keypress } from './interaction.js';
import { consentHandle } from './consent.js';
import { cookiesGet, cookiesSet } from './cookies.js';
import { extract } from './extract.js';
import { fillForm } from './fill-form.js';
import { consoleRead } from './console.js';
import { downloadPage } from './download-page.js';
import { hover, select, type } from './element-actions.js';
import { evaluate } from './evaluate.js';
import { pdf } from './pdf.js';
import { status, url } from './status.js';
import { tabs } from './tabs.js';
import { upload } from './upload.js';
import { close, navigate, open } from './navigation.js';
import { screenshot } from './screenshot.js';
// web.scrape's manifest says provider "host": the host runs the pipeline and asks this handler only to render.
import { scrape } from './scrape.js';
import { scroll, wait } from './waiting.js';
import { snapshot } from './snapshot.js';
import { findByText, pageContent, queryElements } from './page-content.js';
// Not a capability: the host's plan runner asks it to heal a selector.
import { healProbe } from '../fingerprint-match.js';
// Not a capability either: an action's answer over MCP shows what changed on the page.
import { pageView } from './page-view.js';
import { handoff } from './handoff.js';
// Not a capability: after a plan step, whether the page shows a CAPTCHA, a 2FA prompt or a login wall.
import { challengeProbe } from './challenge.js';

export const tools: Tool[] = [open, navigate, close, click, fill, keypress, wait, scroll, extract, screenshot, cookiesGet, cookiesSet, consentHandle, scrape, fillForm,
  snapshot, pageContent, queryElements, findByText,
  // the rest of the browser tool set
  select, hover, type, upload, evaluate, tabs, pdf, consoleRead, downloadPage, url, status, handoff, healProbe, pageView, challengeProbe];
