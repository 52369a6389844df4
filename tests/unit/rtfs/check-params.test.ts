// A plan's literal call parameters are checked against the manifests before
// anything runs: a misspelled key fails with plan:LINE:COL and the nearest
// name; every plan the repository ships passes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { siteProfiles } from '../../../host/discovery/index.js';
import { taskForms } from '../../../host/discovery/rtfs-writer.js';
import { printPlan } from '../../../host/rtfs/printer.js';
import { checkPlan } from '../../../host/rtfs/check.js';
import { GOOGLE_MAPS_PLAN, THEFORK_PLAN } from './seed-plans.js';

const failure = (src: string) => { try { checkPlan(src); } catch (e) { return e as { code: string; message: string }; } return undefined; };

describe('checkPlan: parameters against the manifests', () => {
  it('a misspelled parameter names the capability, the position and the nearest parameter', () => {
    expect(failure('(do\n  (call :web.wait {:selectr "#go"}))')).toMatchObject({
      code: 'invalid_params',
      message: expect.stringMatching(/^plan:2:20: web\.wait has no parameter "selectr" \(did you mean "selector"\?\)/),
    });
  });

  it('a string key is checked like a keyword; a key that is not a name is not echoed', () => {
    expect(failure('(call :web.open {"urll" "http://a.test/"})')?.message).toMatch(/^plan:1:18: web\.open has no parameter "urll" \(did you mean "url"\?\)/);
    expect(failure('(call :web.open {"sk-secret value" "x"})')?.message).toMatch(/web\.open has no parameter of that name/);
  });

  it('computed parameter maps are left to run time; declared parameters pass', () => {
    expect(failure('(let [p {:selectr "#go"}] (call :web.wait p))')).toBeUndefined();
    expect(failure('(call :web.wait {:selector "#go" :timeout 5000 :session "s1"})')).toBeUndefined();
  });

  it('every shipped plan, the seed plans and discovery plans pass', () => {
    const shipped = readdirSync('examples').filter((n) => n.endsWith('.rtfs'));
    expect(shipped.length).toBeGreaterThanOrEqual(4);
    for (const f of shipped) expect(failure(readFileSync(join('examples', f), 'utf8')), f).toBeUndefined();
    expect(failure(GOOGLE_MAPS_PLAN)).toBeUndefined();
    expect(failure(THEFORK_PLAN)).toBeUndefined();
    let tasks = 0;
    for (const p of siteProfiles()) {
      for (const [name, task] of Object.entries(p.tasks ?? {})) {
        tasks++;
        expect(failure(printPlan([], taskForms(task.steps, task.returns))), `${p.name} ${name}`).toBeUndefined();
      }
    }
    expect(tasks).toBeGreaterThan(3);
  });
});
