// The small decisions of the scrape pipeline, as tables.
import { describe, expect, it } from 'vitest';
import { detectLanguage, normaliseTag } from '../../../host/scrape/language.js';
import { isoDate } from '../../../host/scrape/metadata.js';
import { cleanByline } from '../../../host/scrape/readable.js';
import { countWords } from '../../../host/scrape/text.js';
import { trimTitle } from '../../../host/scrape/title.js';

describe('trimTitle: cut the site name only on evidence from the page', () => {
  it.each([
    ['Story – Site', ['Story'], undefined, 'Story'],
    ['Configuration reference — Tidewater 3.2 documentation', ['Configuration reference¶'], undefined, 'Configuration reference'],
    ['Story | The Gazette', [], 'The Gazette', 'Story'],
    ['Rock - Paper - Scissors', [], undefined, 'Rock - Paper - Scissors'],
    ['Title: with a colon', ['Title'], undefined, 'Title: with a colon'],
    ['Plain title', ['Other heading'], 'Site', 'Plain title'],
  ])('%s', (title, headings, site, expected) => {
    expect(trimTitle(title, headings, site)).toBe(expected);
  });
});

describe('bylines, tags, dates, words', () => {
  it.each([
    ['By Jane Roe', 'Jane Roe'], ['Par Julie Martin', 'Julie Martin'], ['Von  Katrin\nBauer', 'Katrin Bauer'], ['Byron Smith', 'Byron Smith'], ['  ', null], [null, null],
  ])('cleanByline(%j) = %j', (raw, expected) => {
    expect(cleanByline(raw)).toBe(expected);
  });

  it.each([
    ['en-us', 'en-US'], ['pt_BR', 'pt-BR'], ['zh-hant-tw', 'zh-Hant-TW'], ['de-DE, en', 'de-DE'], ['EN', 'en'], ['not a tag!', null], ['', null],
  ])('normaliseTag(%j) = %j', (raw, expected) => {
    expect(normaliseTag(raw)).toBe(expected);
  });

  it.each([
    ['2024-05-14T07:30:00+01:00', '2024-05-14T06:30:00.000Z'], ['2024-09-03', '2024-09-03T00:00:00.000Z'], ['yesterday', null], [undefined, null],
  ])('isoDate(%j) = %j', (raw, expected) => {
    expect(isoDate(raw)).toBe(expected);
  });

  it('counts words across scripts and punctuation', () => {
    expect(countWords('Hello, world! It’s 3.5 km — l’été.')).toBe(6);
    expect(countWords('')).toBe(0);
  });

  it('detects a language only when the evidence is clear', () => {
    expect(detectLanguage('Der Zug fährt über die Alpen, und die Reisenden sind mit dem Service zufrieden, auch wenn es nicht immer pünktlich ist.')).toBe('de');
    expect(detectLanguage('The train goes over the Alps and the passengers are happy with the service, even if it is not always on time.')).toBe('en');
    expect(detectLanguage('Tokyo 2024 Osaka 1990')).toBeNull();
  });
});
