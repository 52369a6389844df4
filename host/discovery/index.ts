// host.discover / host.plan: the web fallback. A plan is
// written from the best site profile's task: the user is asked first, the
// cookie banner is handled through the profile, then the task's own steps.
import { join } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { projectRoot } from '../../manifests/load.js';
import type { SiteProfile, TaskStep } from '../../manifests/site-profile.js';
import { loadProfiles } from '../profiles/site-profiles.js';
import type { WebcapConfig } from '../config/types.js';
import { rankCandidates, type Candidate } from './rank.js';
import { call, list, printPlan, sym } from '../rtfs/printer.js';
import { taskForms } from './rtfs-writer.js';

export type { Candidate } from './rank.js';

export interface WrittenPlan { source: string; candidate: Candidate; candidates: Candidate[] }

export function discover(need: string, inputs: Record<string, unknown>, config: WebcapConfig, profiles = siteProfiles()): Candidate[] {
  return rankCandidates(profiles, need, inputs, config);
}

export function writePlan(need: string, inputs: Record<string, unknown>, config: WebcapConfig, profiles = siteProfiles()): WrittenPlan {
  const candidates = discover(need, inputs, config, profiles);
  const usable = candidates.find((c) => c.allowed && c.missing_inputs.length === 0);
  if (!usable) {
    const why = candidates.length ? `: ${candidates.map((c) => `${c.profile} (${c.reason})`).join('; ')}` : ' (no site profile declares a task for it)';
    throw new WebcapError('unknown_capability', `no usable web fallback for need "${need}"${why}`, { need });
  }
  const profile = profiles.find((p) => p.name === usable.profile)!;
  const task = profile.tasks![usable.task];
  const values = { ...defaults(task.inputs), ...inputs };
  const steps = withConsent(profile, task.steps.map((s) => fill(s, values)));
  const site = usable.start_url ? new URL(usable.start_url).hostname : profile.domains[0];
  const question = `Use ${site} (site profile ${profile.name}) for "${need}" with ${Object.entries(inputs).filter(([k]) => k !== 'url').map(([k, v]) => `${k} = ${String(v)}`).join(', ') || 'no inputs'}?`;
  const source = printPlan([
    `Written by webcap discovery for need "${need}" from site profile "${profile.name}", task "${usable.task}".`,
    `${usable.reason}.`,
  ], [list([sym('do'), call('ccos.user.ask', { question }), ...taskForms(steps, task.returns)], 1)]);
  return { source, candidate: usable, candidates };
}

export function siteProfiles(): SiteProfile[] {
  return loadProfiles(join(projectRoot(), 'site-profiles'));
}

function defaults(inputs: NonNullable<SiteProfile['tasks']>[string]['inputs']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputs ?? {}).filter(([, s]) => s.default !== undefined).map(([k, s]) => [k, s.default]));
}

/** Every plan that opens a site answers its cookie banner right after: through the profile when it has rules. */
function withConsent(profile: SiteProfile, steps: TaskStep[]): TaskStep[] {
  if (steps.some((s) => s.call === 'web.consent.handle')) return steps;
  const at = steps.findIndex((s) => s.call === 'web.open') + 1;
  const policy = profile.consent ? `profile:${profile.name}` : 'auto_or_prompt';
  return [...steps.slice(0, at), { call: 'web.consent.handle', args: { policy } }, ...steps.slice(at)];
}

/** Replaces {{input}} in step arguments; a whole-string placeholder keeps the input's type. */
function fill(step: TaskStep, values: Record<string, unknown>): TaskStep {
  const sub = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\{\{(\w+)\}\}$/.exec(v);
      if (whole) return values[whole[1]];
      return v.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));
    }
    if (Array.isArray(v)) return v.map(sub);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sub(x)]));
    return v;
  };
  return { ...step, args: sub(step.args ?? {}) as Record<string, unknown> };
}
