// A <template>'s markup is not part of the page a browser shows: its parser keeps
// it in template.content, out of the document tree. linkedom parses it as
// ordinary children; the pipeline must read the page as a browser holds it.
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../host/scrape/dom.js';
import { scrapePage } from '../../../host/scrape/pipeline.js';

const para = (i: number) => `<p>The harbour wall was rebuilt in the winter of the storm, and the town, number ${i}, paid for it, with stones, sand, and a great deal of patience.</p>`;
const hiddenStory = Array.from({ length: 8 }, (_, i) => para(i)).join('');
const visible = 'The visible story is short, but it is the one a reader sees on the page today, with a few commas, and more.';
const page = (template: string) => `<!doctype html><html><head><title>Harbour</title>${template}</head><body><article><h1>Harbour</h1><p>${visible}</p></article></body></html>`;
const scrape = (html: string) => scrapePage({ url: 'http://news.test/a', status: 200, headers: { 'content-type': 'text/html' }, html, rendered: false }, { format: 'text', mainContent: true });

describe('template markup', () => {
  it('reads a page whose <head> template holds paragraphs (Readability climbed out of <head> and threw)', () => {
    const result = scrape(page(`<template id="later">${hiddenStory}</template>`));
    expect(result.content_text).toBe(visible);
  });

  it('does not take a template\'s unshown story over the page\'s own', () => {
    const result = scrape(page(`<template id="later"><div>${hiddenStory}</div></template>`));
    expect(result.content_text).toBe(visible);
    expect(result.content_text).not.toContain('harbour wall');
  });

  it('keeps the markup in template.content, as a browser does, and a declarative shadow root in the tree', () => {
    const doc = parseDocument(`<html><body><template id="t"><p>Later</p></template><div><template shadowrootmode="open"><p>Shown</p></template></div></body></html>`, 'http://news.test/a');
    const template = doc.querySelector('template#t') as HTMLTemplateElement;
    expect(template.childNodes.length).toBe(0);
    expect(template.content.firstChild?.textContent).toBe('Later');
    expect(doc.body.textContent).toContain('Shown');
  });
});
