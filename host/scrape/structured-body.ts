// The page's own statement of its article (schema.org articleBody in its
// JSON-LD) as a reading of its own. Some pages print only the first lines
// of an article as HTML and carry the whole text in their structured data
// (the rest is drawn by a script). When the statement is an article's worth
// of words, holds several times what the answer holds, and is consistent
// with the page (it holds most of the answer's words, or its headline is the
// page's title), its text replaces the thin answer, paragraph by paragraph.
import { kept } from './better-reading.js';
import { countWords } from './text.js';

// articleBody counts only when it is an article's worth of words...
const BODY_WORDS = 80;
// ...and this many times longer than the answer.
const LONGER = 2;
// Consistent: it holds this share of the answer's words, or its headline holds this share of the title's.
const HOLDS_ANSWER = 0.6;
const HEADLINE_MATCH = 0.5;

interface StructuredBody { text: string; headline?: string }

/** Replaces the answer in `root` by articleBody when consistent and much longer; true when it did. */
export function takeStructuredBody(root: Element, answerText: string, title: string, body: StructuredBody | undefined): boolean {
  if (!body) return false;
  const words = countWords(body.text);
  if (words < BODY_WORDS || words < countWords(answerText) * LONGER) return false;
  const consistent = (answerText.trim() && kept(answerText, body.text) >= HOLDS_ANSWER) || (body.headline && title && kept(title, body.headline) >= HEADLINE_MATCH);
  if (!consistent) return false;
  const doc = root.ownerDocument;
  root.replaceChildren();
  for (const line of body.text.split(/\n+/).map((l) => l.trim()).filter(Boolean)) {
    const p = doc.createElement('p');
    p.textContent = line;
    root.append(p);
  }
  return true;
}
