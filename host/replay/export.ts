// `webcap chain export` and web.plan_export: the calls of one recorded run
// (a plan, an MCP/CLI session, or the last run) written as an RTFS plan.
import { relative } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { readChainEntries, selectRun, sessionOf, type RawEntry, type Selection } from './chain-calls.js';
import { writeExportedPlan, type WrittenExport } from './plan-writer.js';

interface ExportResult extends WrittenExport { source: string }

/** `only`: the entries the asker may see (one MCP client's own, over HTTP); absent: all. */
export function exportPlan(chainPath: string, selection: Selection, only?: (e: RawEntry) => boolean): ExportResult {
  const entries = only ? readChainEntries(chainPath).filter(only) : readChainEntries(chainPath);
  // A caller's own attempts on a session it never opened (refused) are not that session's run.
  if (only && 'session' in selection && !entries.some((e) => e.kind === 'call' && e.capability === 'web.open' && !e.error && sessionOf(e) === selection.session)) {
    throw new WebcapError('session_not_found', `no calls of session ${selection.session} in the chain`, { session: selection.session });
  }
  const run = selectRun(entries, selection);
  const source = `${run.label} in ${relative(process.cwd(), chainPath) || chainPath}`;
  return { ...writeExportedPlan(run.calls, source), source };
}
