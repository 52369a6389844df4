// Sixteen MiniWoB-sized tasks for the scripted agent (bench/agent-tasks.ts):
// each a page, the steps a careful agent takes (by role and accessible name,
// as it reads them from a snapshot), and the text that shows it solved it.
import { html, send, type Handler } from '../tests/helpers/fixture-server.js';

export type Step =
  | { do: 'click'; role: string; name: string }
  | { do: 'fill' | 'type'; role: string; name: string; text: string }
  | { do: 'select'; role: string; name: string; value: string }
  | { do: 'press'; key: string };

export interface AgentTask { id: string; page: string; steps: Step[]; expect: string }

const say = (text: string) => `document.getElementById('out').textContent='${text}'`;
const val = (id: string) => `document.getElementById('${id}').value`;
const OUT = '<p id="out">waiting</p>';

export const TASKS: AgentTask[] = [
  { id: 'click-button', page: `<h1>Click</h1><button onclick="${say('done: clicked')}">Submit</button>${OUT}`, steps: [{ do: 'click', role: 'button', name: 'Submit' }], expect: 'done: clicked' },
  { id: 'enter-text', page: `<h1>Text</h1><label for="n">Name</label><input id="n"><button onclick="document.getElementById('out').textContent='Hello '+${val('n')}">Submit</button>${OUT}`,
    steps: [{ do: 'fill', role: 'textbox', name: 'Name', text: 'Ada' }, { do: 'click', role: 'button', name: 'Submit' }], expect: 'Hello Ada' },
  { id: 'two-fields', page: `<h1>Two</h1><label for="a">First</label><input id="a"><label for="b">Last</label><input id="b"><button onclick="document.getElementById('out').textContent='Name: '+${val('a')}+' '+${val('b')}">Save</button>${OUT}`,
    steps: [{ do: 'fill', role: 'textbox', name: 'First', text: 'Grace' }, { do: 'fill', role: 'textbox', name: 'Last', text: 'Hopper' }, { do: 'click', role: 'button', name: 'Save' }], expect: 'Name: Grace Hopper' },
  { id: 'select-option', page: `<h1>Select</h1><label for="c">Color</label><select id="c"><option>Red</option><option>Blue</option></select><button onclick="document.getElementById('out').textContent='You chose '+${val('c')}">Go</button>${OUT}`,
    steps: [{ do: 'select', role: 'combobox', name: 'Color', value: 'Blue' }, { do: 'click', role: 'button', name: 'Go' }], expect: 'You chose Blue' },
  { id: 'checkbox', page: `<h1>Terms</h1><label><input type="checkbox" id="t"> I agree</label><button onclick="document.getElementById('out').textContent=document.getElementById('t').checked?'accepted terms':'please agree'">Continue</button>${OUT}`,
    steps: [{ do: 'click', role: 'checkbox', name: 'I agree' }, { do: 'click', role: 'button', name: 'Continue' }], expect: 'accepted terms' },
  { id: 'radio', page: `<h1>Size</h1><label><input type="radio" name="s" value="S"> Small</label><label><input type="radio" name="s" value="L" id="l"> Large</label><button onclick="document.getElementById('out').textContent=document.getElementById('l').checked?'ordered Large':'pick one'">Order</button>${OUT}`,
    steps: [{ do: 'click', role: 'radio', name: 'Large' }, { do: 'click', role: 'button', name: 'Order' }], expect: 'ordered Large' },
  { id: 'follow-link', page: '<h1>Home</h1><a href="/task/details-page">Details</a>', steps: [{ do: 'click', role: 'link', name: 'Details' }], expect: 'Details page' },
  { id: 'two-links', page: '<h1>Start</h1><a href="/task/step-two">Next</a>', steps: [{ do: 'click', role: 'link', name: 'Next' }, { do: 'click', role: 'link', name: 'Finish' }], expect: 'All steps done' },
  { id: 'search-enter', page: `<h1>Search</h1><label for="q">Search</label><input id="q" onkeydown="if(event.key==='Enter')document.getElementById('out').textContent='Results for '+this.value">${OUT}`,
    steps: [{ do: 'fill', role: 'textbox', name: 'Search', text: 'otters' }, { do: 'press', key: 'Enter' }], expect: 'Results for otters' },
  { id: 'reveal-then-confirm', page: `<h1>Reveal</h1><button onclick="document.getElementById('more').hidden=false">Show more</button><div id="more" hidden><button onclick="${say('confirmed')}">Confirm</button></div>${OUT}`,
    steps: [{ do: 'click', role: 'button', name: 'Show more' }, { do: 'click', role: 'button', name: 'Confirm' }], expect: 'confirmed' },
  { id: 'tabs', page: `<h1>Panel</h1><div role="tablist"><button role="tab" onclick="document.getElementById('p2').hidden=false">Settings</button></div><div id="p2" hidden><button onclick="${say('settings saved')}">Save</button></div>${OUT}`,
    steps: [{ do: 'click', role: 'tab', name: 'Settings' }, { do: 'click', role: 'button', name: 'Save' }], expect: 'settings saved' },
  { id: 'counter', page: `<h1>Counter</h1><button onclick="this.dataset.n=(+this.dataset.n||0)+1;document.getElementById('out').textContent='Count: '+this.dataset.n">Increment</button>${OUT}`,
    steps: [{ do: 'click', role: 'button', name: 'Increment' }, { do: 'click', role: 'button', name: 'Increment' }, { do: 'click', role: 'button', name: 'Increment' }], expect: 'Count: 3' },
  { id: 'dialog', page: `<h1>Dialog</h1><button onclick="document.getElementById('d').showModal()">Open</button><dialog id="d"><p>Sure?</p><button onclick="document.getElementById('d').close();${say('dialog closed')}">OK</button></dialog>${OUT}`,
    steps: [{ do: 'click', role: 'button', name: 'Open' }, { do: 'click', role: 'button', name: 'OK' }], expect: 'dialog closed' },
  { id: 'autocomplete', page: `<h1>City</h1><label for="city">City</label><input id="city" oninput="document.getElementById('sug').innerHTML=this.value.startsWith('Par')?'<button onclick=&quot;document.getElementById(\\'out\\').textContent=\\'City: Paris\\'&quot;>Paris</button>':''"><div id="sug"></div>${OUT}`,
    steps: [{ do: 'type', role: 'textbox', name: 'City', text: 'Par' }, { do: 'click', role: 'button', name: 'Paris' }], expect: 'City: Paris' },
  { id: 'form-submit-page', page: '<h1>Signup</h1><form action="/task/thanks" method="get"><label for="e">Email</label><input id="e" name="e"><button>Sign up</button></form>',
    steps: [{ do: 'fill', role: 'textbox', name: 'Email', text: 'a@b.test' }, { do: 'click', role: 'button', name: 'Sign up' }], expect: 'Thanks for signing up' },
  { id: 'toggle', page: `<h1>Theme</h1><button role="switch" aria-checked="false" onclick="this.setAttribute('aria-checked','true');${say('dark mode on')}">Dark mode</button>${OUT}`,
    steps: [{ do: 'click', role: 'switch', name: 'Dark mode' }], expect: 'dark mode on' },
];

export const TASK_ROUTES: Record<string, Handler> = {
  ...Object.fromEntries(TASKS.map((t) => [`/task/${t.id}`, (_q, res) => send(res, html(t.page))])),
  '/task/details-page': (_q, res) => send(res, html('<h1>Details page</h1><p>Everything about it.</p>')),
  '/task/step-two': (_q, res) => send(res, html('<h1>Step two</h1><a href="/task/step-three">Finish</a>')),
  '/task/step-three': (_q, res) => send(res, html('<h1>All steps done</h1>')),
  '/task/thanks': (_q, res) => send(res, html('<h1>Thanks for signing up</h1>')),
};
