// One host process of the concurrency test: calls as fast as it can until a
// deadline, then prints its tally as one JSON line. The call is web.scrape on
// a loopback URL under [consent] require with non_interactive = "deny": the
// budget admits or refuses it, and an admitted one is then refused by
// consent, so nothing is fetched and no browser starts.
// argv: CONFIG_JSON START_AT_MS DURATION_MS
import { createHost } from '../../dist/host/host.js';

const [configJson, startAt, duration] = process.argv.slice(2);
const host = createHost({ config: JSON.parse(configJson) });
const tally = { admitted: 0, refused: 0, other: {} };
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
const until = Date.now() + Number(duration);
while (Date.now() < until) {
  try {
    await host.call('web.scrape', { url: 'http://127.0.0.1:9/page' });
    tally.other.ok = (tally.other.ok ?? 0) + 1;
  } catch (err) {
    if (err.code === 'consent_denied') tally.admitted++;
    else if (err.code === 'budget_exceeded' && err.details?.budget === 'domain:127.0.0.1') tally.refused++;
    else tally.other[err.code] = (tally.other[err.code] ?? 0) + 1;
  }
}
await host.close();
process.stdout.write(`${JSON.stringify(tally)}\n`);
