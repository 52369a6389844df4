// The secret entry page. The value is read from a password input and sent
// once, in a POST to this console (cookie token, same origin); it is never
// written into the page, the address or storage, and the field is emptied
// as soon as it is sent. Strings from the host go in through textContent.
const $ = (id) => document.getElementById(id);
const id = (location.pathname.match(/^\/s\/([0-9a-f]{32})$/) || [])[1];

function row(name, value) {
  const dt = document.createElement('dt');
  dt.textContent = name;
  const dd = document.createElement('dd');
  dd.textContent = value;
  $('about').append(dt, dd);
}

function finish(text) {
  $('value').value = '';
  $('entry').hidden = true;
  $('done').hidden = false;
  $('done').textContent = text;
  $('status').textContent = 'done';
}

async function post(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'same-origin' });
  return { ok: res.ok, reply: await res.json().catch(() => ({})) };
}

async function load() {
  if (!id) { $('status').textContent = 'no request named in this address'; return; }
  const res = await fetch(`/s/${id}/about`, { credentials: 'same-origin' });
  const about = await res.json().catch(() => ({}));
  if (!res.ok) { $('status').textContent = about.error || `not available (${res.status})`; return; }
  row('Secret', about.name);
  row('Kind', about.kind === 'totp' ? 'TOTP seed (base32, or an otpauth:// URI)' : 'password or other secret');
  row('Wanted by', about.asked_by);
  row('Proposed sites', about.origins.length ? about.origins.join(' ') : '(none: name the sites it belongs to)');
  $('value-label').textContent = about.kind === 'totp' ? `TOTP seed for "${about.name}"` : `Value of "${about.name}"`;
  $('origins').value = about.origins.join(' ');
  $('entry').hidden = false;
  $('status').textContent = 'waiting for you';
  $('value').focus();
}

$('entry').addEventListener('submit', async (event) => {
  event.preventDefault();
  const origins = $('origins').value.split(/[\s,]+/).filter(Boolean);
  const { ok, reply } = await post(`/s/${id}`, { value: $('value').value, origins });
  if (ok) finish(`Stored "${reply.name}" for ${origins.join(' ')}. webcap goes on; you can close this page.`);
  else $('status').textContent = `not stored: ${reply.error || 'error'}`;
});

$('cancel').addEventListener('click', async () => {
  await post(`/s/${id}/cancel`, {});
  finish('Cancelled: nothing was stored; the call that needed it fails.');
});

void load();
