// web.consent.handle × every policy on more CMP shapes, in the markup
// @duckduckgo/autoconsent's rule files look for (tests/helpers/consent-banners.ts).
import { LIBRARY_BANNERS, describeBanners, useConsentBench } from '../helpers/consent-banners.js';

describeBanners(LIBRARY_BANNERS.slice(3), useConsentBench());
