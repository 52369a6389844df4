// The generic heuristics, last after the site profile and the consent-rule
// library (@duckduckgo/autoconsent, library.ts): button labels of hand-made
// banners and the words that make a container a cookie banner. Data only, so
// adding a language is one line.

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
