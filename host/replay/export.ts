// `webcap chain export` and web.plan_export: the calls of one recorded run
// (a plan, an MCP/CLI session, or the last run) written as an RTFS plan.
import { relative } from 'node:path';
import { readChainEntries, selectRun, type Selection } from './chain-calls.js';
import { writeExportedPlan, type WrittenExport } from './plan-writer.js';

export interface ExportResult extends WrittenExport { source: string }

export function exportPlan(chainPath: string, selection: Selection): ExportResult {
  const run = selectRun(readChainEntries(chainPath), selection);
  const source = `${run.label} in ${relative(process.cwd(), chainPath) || chainPath}`;
  return { ...writeExportedPlan(run.calls, source), source };
}
