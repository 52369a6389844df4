// The bench's own count of interactable elements, independent of every
// snapshot code: a script the page server appends to a page, which, once the
// page has loaded, gives each visible interactable element (links with href,
// buttons, inputs but hidden ones, selects, textareas, button/link roles,
// onclick, tabindex ≥ 0) a unique accessible name `qzNzq` and writes the count
// into the title (`qznN`). A tool addresses element N when its answer has the
// name `qzNzq` right next to a ref (addressedLabels says how).
export const LABEL_SCRIPT = `<script>(function(){function label(){var n=0;
document.querySelectorAll('a,button,input,select,textarea,[role],[onclick],[tabindex]').forEach(function(el){
var tag=el.tagName.toLowerCase();var role=(el.getAttribute('role')||'').trim().toLowerCase();var t=el.getAttribute('tabindex');
if(tag==='input'&&(el.getAttribute('type')||'').toLowerCase()==='hidden')return;
var ok=(tag==='a'&&el.hasAttribute('href'))||tag==='button'||tag==='input'||tag==='select'||tag==='textarea'||role==='button'||role==='link'||el.hasAttribute('onclick')||(t!==null&&t.trim()!==''&&Number(t)>=0);
if(!ok)return;if(el.checkVisibility&&!el.checkVisibility({visibilityProperty:true}))return;
var b=el.getBoundingClientRect();if(!(b.width>0&&b.height>0))return;
el.setAttribute('aria-label','qz'+n+'zq');n++;});document.title='qzn'+n;}
if(document.readyState==='complete')label();else addEventListener('load',label);})();</script>`;

/** The page's HTML with the labelling script at its end. */
export function labelled(html: string): string {
  return /<\/body>/i.test(html) ? html.replace(/<\/body>(?![\s\S]*<\/body>)/i, `${LABEL_SCRIPT}</body>`) : html + LABEL_SCRIPT;
}

/** How many elements the page labelled (from its title), or null when the script did not run. */
export function labelCount(title: string): number | null {
  const m = /qzn(\d+)/.exec(title);
  return m ? Number(m[1]) : null;
}

/**
 * The distinct labels an agent can act on from the answer: a label printed
 * right next to its own ref — `"qz5zq" [ref=e12]` (a name then its ref, any
 * states between) or `e12 qz5zq` / `e12 textbox [checked] qz5zq` (a ref then
 * its name, in a ref list). The ref and the name come from the same
 * accessibility line, so the ref resolves to the labelled element; a label
 * with no ref beside it (in a count, in running text) does not count.
 */
export function addressedLabels(answer: string): Set<number> {
  const found = new Set<number>();
  const nameThenRef = /qz(\d+)zq"?(?: \[(?!ref=)[^\]]*\])* \[ref=(?:f\d+)?(?:e|wa-)\d+\]/g;
  const refThenName = /(?:^|[\s,:])(?:(?:f\d+)?e\d+|wa-\d+)(?:,(?:f\d+)?e\d+)*(?: [a-z]+)?(?: \[[^\]]*\])* "?qz(\d+)zq/g;
  for (const m of answer.matchAll(nameThenRef)) found.add(Number(m[1]));
  for (const m of answer.matchAll(refThenName)) found.add(Number(m[1]));
  return found;
}
