// web.consent.handle × every policy on the common CMPs' banners, and the first
// of the library's other shapes (tests/helpers/consent-banners.ts).
import { CMP_BANNERS, LIBRARY_BANNERS, describeBanners, useConsentBench } from '../helpers/consent-banners.js';

describeBanners([...CMP_BANNERS, ...LIBRARY_BANNERS.slice(0, 3)], useConsentBench());
