// The console page. Every string from the host (page titles, URLs, questions,
// chain entries) goes into the DOM through textContent or an attribute, never
// as HTML; the server's CSP allows no inline script.
import { drivable, handBack, handoffOf, setHandoffs } from './handoff.js';

const $ = (id) => document.getElementById(id);
const questionEls = new Map();
let focusId = (location.pathname.match(/^\/q\/([0-9a-f]{32})$/) || [])[1];

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

async function post(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  const reply = await res.json().catch(() => ({}));
  $('status').textContent = res.ok ? 'sent' : `not done: ${reply.error || res.status}`;
  return res.ok;
}

function leavingRows(q) {
  const rows = [];
  const add = (name, value) => { if (value !== undefined && value !== null && value !== '') rows.push(el('dt', { text: name }), el('dd', { text: typeof value === 'string' ? value : JSON.stringify(value) })); };
  const l = q.leaving || {};
  add('Method', l.method);
  add('Origin', l.origin);
  add('Path', l.path);
  add('Fields', l.fields && l.fields.length ? l.fields.join(', ') : undefined);
  add('Values (as the chain shows them)', l.params);
  add('Asked by', q.asked_by);
  add('Capability', q.question.capability);
  add('Why', q.question.reason);
  for (const [k, v] of Object.entries(q.question.details || {})) add(k, v);
  return rows;
}

function pictureOf(q) {
  const e = q.evidence;
  if (!e || !e.has_picture) return el('p', { text: e ? 'No picture of the page could be taken in time.' : 'Taking a picture of the page…' });
  const alt = `Page "${e.title || 'untitled'}" (${e.url}) at the moment of asking${e.element ? `, ${e.element} outlined in red` : ''}; password and payment fields masked`;
  return el('img', { src: `/evidence/${q.id}.png`, alt });
}

function questionCard(q) {
  const minutes = el('input', { type: 'number', min: '1', max: '1440', value: '10', 'aria-label': 'minutes' });
  const originButton = el('button', { type: 'button', class: 'approve-origin', onclick: () => post('/answer', { id: q.id, decision: 'approve_origin', minutes: Number(minutes.value) }) });
  const setOriginName = () => { originButton.textContent = `Approve for this origin for ${minutes.value} minutes`; };
  minutes.addEventListener('input', setOriginName);
  setOriginName();
  const picture = el('div', { class: 'picture' }, [pictureOf(q)]);
  const facts = el('dl', {}, leavingRows(q));
  const card = el('section', { class: 'question', 'aria-label': q.question.question }, [
    el('h3', { text: q.question.question }),
    picture,
    facts,
    el('div', { class: 'buttons' }, [
      el('button', { type: 'button', class: 'approve', text: 'Approve', onclick: () => post('/answer', { id: q.id, decision: 'approve' }) }),
      el('button', { type: 'button', class: 'deny', text: 'Deny', onclick: () => post('/answer', { id: q.id, decision: 'deny' }) }),
      ...(q.rememberable ? [originButton, minutes] : []),
    ]),
  ]);
  return { card, picture, facts, shown: JSON.stringify([q.evidence, q.leaving]) };
}

function renderQuestions(questions) {
  const box = $('questions');
  const live = new Set(questions.map((q) => q.id));
  for (const [id, entry] of questionEls) if (!live.has(id)) { entry.card.remove(); questionEls.delete(id); }
  for (const q of questions) {
    let entry = questionEls.get(q.id);
    if (!entry) {
      entry = questionCard(q);
      questionEls.set(q.id, entry);
      box.append(entry.card);
      if (q.id === focusId) { entry.card.scrollIntoView(); entry.card.setAttribute('tabindex', '-1'); entry.card.focus(); focusId = undefined; }
    } else if (entry.shown !== JSON.stringify([q.evidence, q.leaving])) {
      entry.picture.replaceChildren(pictureOf(q));
      entry.facts.replaceChildren(...leavingRows(q));
      entry.shown = JSON.stringify([q.evidence, q.leaving]);
    }
  }
  $('no-questions').hidden = questions.length > 0;
}

// One live view per session, kept across renders (its image stream stays open while the session is shown).
const liveViews = new Map();
function liveView(s) {
  let view = liveViews.get(s.name);
  if (!view) {
    // A multipart JPEG stream: the host pushes frames as the page repaints, and screencasts only while one is open.
    const img = el('img', { class: 'live', alt: '', src: `/live/${encodeURIComponent(s.name)}.mjpeg` });
    view = el('div', { role: 'application' }, [img]);
    drivable(view, img, s.name);
    liveViews.set(s.name, view);
  }
  const h = handoffOf(s.name);
  view.setAttribute('aria-label', `Live view of ${s.title || s.url || s.name}`);
  view.classList.toggle('driving', Boolean(h));
  return view;
}

function handoffBox(s) {
  const h = handoffOf(s.name);
  if (!h) return null;
  return el('section', { class: 'handoff', 'aria-label': `Hand-off: ${h.reason}` }, [
    el('h3', { text: `The page is yours: ${h.reason}` }),
    el('p', { text: `Click and type in the live view below; press Done to hand it back (by ${new Date(h.until).toLocaleTimeString()}).` }),
    el('button', { type: 'button', class: 'approve', text: 'Done', onclick: async () => { $('status').textContent = (await handBack(h)) ? 'handed back' : 'not done: the hand-off is over'; } }),
  ]);
}

function renderSessions(sessions) {
  setHandoffs(sessions);
  $('no-sessions').hidden = sessions.length > 0;
  const open = new Set(sessions.map((s) => s.name));
  for (const [name, view] of liveViews) if (!open.has(name)) { view.querySelector('img').removeAttribute('src'); liveViews.delete(name); }
  // Rendering moves the live views: the one the person types into keeps the focus.
  const focused = document.activeElement;
  $('sessions').replaceChildren(...sessions.map((s) => el('li', { 'aria-label': `Session ${s.name}` }, [
    el('strong', { text: s.title || '(no title yet)' }),
    el('div', { class: 'url', text: s.url || '' }),
    handoffBox(s),
    liveView(s),
    el('div', { text: `session ${s.name}${s.handoff ? ' · the person drives it' : s.running ? ` · running ${s.running}${s.plan ? ` (${s.plan})` : ''}` : ' · idle'}` }),
    el('div', { class: 'buttons' }, [
      el('button', { type: 'button', class: 'stop', text: 'Stop', onclick: () => post('/stop', { session: s.name }) }),
    ]),
  ])));
  if (focused && focused !== document.activeElement && document.contains(focused)) focused.focus();
}

function renderChain(entries) {
  $('chain').replaceChildren(...entries.map((e) => {
    const verdict = e.decision ? `${e.decision.decision}${e.decision.reason ? ` (${e.decision.reason})` : ''}` : '';
    const head = `#${e.seq} ${e.kind}${e.capability ? ` ${e.capability}` : ''}${e.session ? ` [${e.session}]` : ''} ${verdict}${e.error ? ` ${e.error.code}` : ''}`;
    const body = e.result ?? e.params;
    return el('li', { class: e.error || (e.decision && e.decision.decision === 'denied') ? 'denied' : '' }, [
      el('span', { text: head }),
      body ? el('pre', { text: JSON.stringify(body) }) : null,
    ]);
  }));
}

const events = new EventSource('/events');
events.addEventListener('state', (m) => {
  const state = JSON.parse(m.data);
  renderQuestions(state.questions);
  renderSessions(state.sessions);
  renderChain(state.chain);
  $('status').textContent = `live · ${state.questions.length} question(s) waiting`;
});
events.addEventListener('error', () => { $('status').textContent = 'disconnected; retrying…'; });
