// What we know about consent banners without a site profile: the DOM markers
// of the common consent-management platforms (CMPs), and the button labels of
// hand-made banners. Data only, so adding a CMP or a language is one line.

export interface CmpRule {
  cmp: string;
  /** Present and visible while the banner is up. */
  banner: string;
  accept?: string;
  reject?: string;
  /** Buttons told apart by their label (the CMP gives them no stable ids). */
  buttons?: string;
}

// Ids and test ids as the vendors ship them; CSS here is searched in every
// frame and in open shadow roots (Usercentrics renders inside one).
export const CMPS: CmpRule[] = [
  { cmp: 'onetrust', banner: '#onetrust-banner-sdk', accept: '#onetrust-accept-btn-handler', reject: '#onetrust-reject-all-handler' },
  {
    cmp: 'cookiebot', banner: '#CybotCookiebotDialog',
    accept: '#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll, #CybotCookiebotDialogBodyButtonAccept',
    reject: '#CybotCookiebotDialogBodyButtonDecline',
  },
  { cmp: 'didomi', banner: '#didomi-notice', accept: '#didomi-notice-agree-button', reject: '#didomi-notice-disagree-button' },
  { cmp: 'quantcast', banner: '.qc-cmp2-container', buttons: '.qc-cmp2-summary-buttons button' },
  { cmp: 'trustarc', banner: '#truste-consent-track', accept: '#truste-consent-button', reject: '#truste-consent-required' },
  {
    cmp: 'usercentrics', banner: '#usercentrics-root',
    accept: '[data-testid="uc-accept-all-button"]', reject: '[data-testid="uc-deny-all-button"]',
  },
];

// Labels compared after lower-casing and dropping punctuation, WHOLE label
// only: "Accept" must not match "Accept the terms and pay". Strongest first,
// so "Reject all" wins over a mere "Decline" in the same banner.
export const ACCEPT_LABELS = [
  'accept all', 'accept all cookies', 'allow all', 'allow all cookies', 'agree to all', 'accept and close', 'accept and continue',
  'tout accepter', 'accepter tout', 'accepter et fermer', 'accepter et continuer', 'accepter tous les cookies',
  'alle akzeptieren', 'alle cookies akzeptieren', 'alle zulassen', 'alle cookies zulassen', 'akzeptieren und schließen',
  'aceptar todo', 'aceptar todas', 'aceptar todas las cookies', 'aceptar y cerrar', 'permitir todas',
  'accept', 'accept cookies', 'i accept', 'agree', 'i agree', 'allow', 'allow cookies', 'ok', 'got it',
  'accepter', "j'accepte", 'akzeptieren', 'zustimmen', 'einverstanden', 'aceptar', 'acepto',
];

export const REJECT_LABELS = [
  'reject all', 'reject all cookies', 'decline all', 'deny all', 'refuse all', 'disagree to all',
  'tout refuser', 'refuser tout', 'refuser tous les cookies', 'continuer sans accepter',
  'alle ablehnen', 'alle cookies ablehnen',
  'rechazar todo', 'rechazar todas', 'rechazar todas las cookies',
  'reject', 'reject cookies', 'decline', 'deny', 'refuse', 'disagree', 'i do not agree',
  'only necessary', 'only necessary cookies', 'necessary only', 'only essential', 'essential only', 'use necessary cookies only',
  'allow necessary only', 'accept necessary only', 'accept only necessary', 'accept only essential cookies',
  'refuser', 'uniquement les cookies nécessaires', 'ablehnen', 'nur notwendige', 'nur notwendige cookies', 'nur essenzielle cookies',
  'rechazar', 'solo necesarias', 'solo las necesarias',
];

// A generic button counts only inside a container that talks about cookies:
// an "Accept" in a checkout form is not a consent banner.
export const BANNER_WORDS = 'cookie|consent|gdpr|rgpd|dsgvo|privacy|tracking|traceurs|confidentialit|datenschutz|einwilligung|privacidad|consentimiento|rastreo';
