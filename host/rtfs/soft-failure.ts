// Results that came back without an error but did not do the job: a
// web.fill_form with success: false. The plan log marks them ✗ and the CLI
// exits non-zero, naming what failed.
export function softFailure(capability: string, result: unknown): string | undefined {
  if (capability !== 'web.fill_form' || !result || typeof result !== 'object') return undefined;
  const r = result as { success?: boolean; fields_failed?: Array<{ field: string; reason: string }>; submitted?: boolean; submit_skipped?: string };
  if (r.success !== false) return undefined;
  const fields = (r.fields_failed ?? []).map((f) => `${f.field} (${f.reason})`);
  if (fields.length) return `fields failed: ${fields.join(', ')}`;
  return r.submit_skipped ? `not submitted: ${r.submit_skipped}` : 'the form was not sent successfully';
}
