// Interactive-only view of an aria snapshot (Playwright's "ai" YAML): keep the
// lines an agent can act on — widgets and anything with a pointer cursor — plus
// their /url and /placeholder lines, options of a kept select, and iframes for
// context. Working on the rendered lines keeps Playwright's exact format.
const INTERACTIVE = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem', 'iframe',
]);

interface Open { depth: number; keptAt: number | null }

export function interactiveOnly(yaml: string): string {
  const out: Array<{ depth: number; body: string }> = [];
  const open: Open[] = [];
  for (const line of yaml.split('\n')) {
    const body = line.trimStart();
    if (!body) continue;
    const depth = (line.length - body.length) / 2;
    while (open.length && open[open.length - 1].depth >= depth) open.pop();
    const parentKept = open.length > 0 && open[open.length - 1].keptAt !== null;
    const keptAncestor = [...open].reverse().find((o) => o.keptAt !== null);
    const outDepth = keptAncestor ? keptAncestor.keptAt! + 1 : 0;
    const keep = body.startsWith('- /') ? parentKept : wanted(body, parentKept);
    open.push({ depth, keptAt: keep ? outDepth : null });
    if (keep) out.push({ depth: outDepth, body });
  }
  // A kept node whose children were all dropped must not end in a dangling ":".
  return out.map(({ depth, body }, i) => {
    const childFollows = i + 1 < out.length && out[i + 1].depth > depth;
    const line = body.endsWith(':') && !childFollows ? body.slice(0, -1) : body;
    return '  '.repeat(depth) + line;
  }).join('\n');
}

function wanted(body: string, parentKept: boolean): boolean {
  const role = /^- '?([a-z]+)/.exec(body)?.[1] ?? '';
  if (role === 'option') return parentKept || body.includes('[ref=');
  if (!body.includes('[ref=')) return false;
  return INTERACTIVE.has(role) || body.includes('[cursor=pointer]');
}
