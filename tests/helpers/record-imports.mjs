// Preloaded with NODE_OPTIONS=--import=<this file>: appends every module URL the
// process resolves to $WEBCAP_IMPORT_LOG, so a test can check what a command loaded.
import { register } from 'node:module';

if (process.env.WEBCAP_IMPORT_LOG) {
  register('data:text/javascript,' + encodeURIComponent(`
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const found = await next(specifier, context);
      appendFileSync(${JSON.stringify(process.env.WEBCAP_IMPORT_LOG)}, found.url + '\\n');
      return found;
    }`));
}
