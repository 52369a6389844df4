// Driving a handed-off session from its live view: the person's mouse, wheel,
// keys and text go to the host in order (POST /input with the hand-off's id;
// the cookie carries the token), and Done hands the session back once every
// input before it has arrived. Nothing typed is kept here.
const handoffs = new Map();   // session name → its open hand-off (from the state)
const queues = new Map();     // hand-off id → inputs not sent yet
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'NumLock', 'Fn']);
const BUTTONS = ['left', 'middle', 'right'];

/** The state's open hand-offs, by session. */
export function setHandoffs(sessions) {
  handoffs.clear();
  for (const s of sessions) if (s.handoff) handoffs.set(s.name, s.handoff);
}

export function handoffOf(name) { return handoffs.get(name); }

function queueOf(id) {
  let q = queues.get(id);
  if (!q) queues.set(id, (q = { pending: [], busy: false, idle: [] }));
  return q;
}

function send(h, event) {
  const q = queueOf(h.id);
  const last = q.pending[q.pending.length - 1];
  // Consecutive text, moves and wheel turns travel as one input.
  if (last && last.type === 'text' && event.type === 'text') last.text += event.text;
  else if (last && last.type === 'move' && event.type === 'move') Object.assign(last, event);
  else if (last && last.type === 'wheel' && event.type === 'wheel') { last.dx += event.dx; last.dy += event.dy; }
  else q.pending.push(event);
  void pump(h.id, q);
}

async function pump(id, q) {
  if (q.busy) return;
  q.busy = true;
  while (q.pending.length) {
    const events = q.pending.splice(0, 200);
    await fetch('/input', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handoff: id, events }), credentials: 'same-origin' }).catch(() => undefined);
  }
  q.busy = false;
  for (const resolve of q.idle.splice(0)) resolve();
}

/** Done: after every input typed before it has reached the page. */
export async function handBack(h) {
  const q = queueOf(h.id);
  if (q.busy || q.pending.length) await new Promise((resolve) => q.idle.push(resolve));
  queues.delete(h.id);
  const res = await fetch('/done', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handoff: h.id }), credentials: 'same-origin' });
  return res.ok;
}

/** Makes a session's live view take the person's input while the session is handed off to them. */
export function drivable(view, img, name) {
  view.tabIndex = 0;
  const point = (e, h) => {
    const r = img.getBoundingClientRect();
    if (!r.width || !r.height) return undefined;
    return { x: Math.round(((e.clientX - r.left) / r.width) * h.viewport.width), y: Math.round(((e.clientY - r.top) / r.height) * h.viewport.height) };
  };
  const mouse = (type) => (e) => {
    const h = handoffs.get(name);
    if (!h) return;
    e.preventDefault();
    if (type === 'down') view.focus();
    const p = point(e, h);
    if (p) send(h, { type, ...p, ...(type === 'move' ? {} : { button: BUTTONS[e.button] || 'left' }) });
  };
  img.draggable = false;
  img.addEventListener('pointerdown', mouse('down'));
  img.addEventListener('pointerup', mouse('up'));
  img.addEventListener('pointermove', mouse('move'));
  img.addEventListener('contextmenu', (e) => { if (handoffs.has(name)) e.preventDefault(); });
  img.addEventListener('wheel', (e) => {
    const h = handoffs.get(name);
    if (!h) return;
    e.preventDefault();
    const p = point(e, h);
    if (p) send(h, { type: 'wheel', ...p, dx: e.deltaX, dy: e.deltaY });
  }, { passive: false });
  view.addEventListener('keydown', (e) => {
    const h = handoffs.get(name);
    if (!h || MODIFIERS.has(e.key)) return;
    e.preventDefault();
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) { send(h, { type: 'text', text: e.key }); return; }
    const key = e.key === ' ' ? 'Space' : e.key;
    const combo = [e.ctrlKey && 'Control', e.altKey && 'Alt', e.shiftKey && key.length > 1 && 'Shift', e.metaKey && 'Meta', key].filter(Boolean).join('+');
    send(h, { type: 'key', key: combo });
  });
  view.addEventListener('paste', (e) => {
    const h = handoffs.get(name);
    const text = e.clipboardData && e.clipboardData.getData('text/plain');
    if (!h || !text) return;
    e.preventDefault();
    send(h, { type: 'text', text: text.slice(0, 1000) });
  });
}
