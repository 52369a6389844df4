// The daemon's side of the native client (native/webcap-thin.c): the client
// sends its command line as it got it (`op: 'argv'`); the daemon parses it with
// the Node thin client's parser and verb table, makes the same `call` request
// the Node thin client would send, and answers in frames C reads without a
// JSON parser:
//   NAME <len>\n<bytes>   one env variable name the config reads (hello)
//   HELLO <0|1>\n         end of hello; 1: [cli] daemon is on
//   OUT <1|2> <len>\n<bytes>  bytes for the client's stdout / stderr
//   EXIT <code>\n         the verb is answered; exit with code
//   FALLBACK\n            nothing ran: run the full CLI with the same argv
import { resolve } from 'node:path';
import { parseVerb, verbParams, type ParsedVerb } from '../cli/thin-args.js';
import { renderVerb } from '../cli/thin-render.js';
import { VERBS } from '../cli/verb-table.js';
import type { Reply, Request } from './protocol.js';

type CallRequest = Extract<Request, { op: 'call' }>;
type ArgvRequest = Extract<Request, { op: 'argv' }>;

const frame = (tag: string, body: string) => {
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`${tag} ${bytes.length}\n`), bytes]);
};

export const FALLBACK = 'FALLBACK\n';

export function helloFrames(envNames: string[], daemon: boolean): Buffer {
  return Buffer.concat([...envNames.map((name) => frame('NAME', name)), Buffer.from(`HELLO ${daemon ? 1 : 0}\n`)]);
}

/** The word bin/webcap.js looks at before it tries the thin client at all (the first non-option not after --config). */
function verbWord(argv: string[]): boolean {
  const word = argv.find((a, i) => !a.startsWith('-') && argv[i - 1] !== '--config');
  return word !== undefined && VERBS.some((v) => v.name === word);
}

/**
 * The call an argv request names, exactly as the Node thin client would make it; undefined when the
 * Node thin client would hand over to the full CLI (then nothing runs and the native client does too).
 */
export function callOfArgv(req: ArgvRequest): { call: CallRequest; verb: ParsedVerb } | undefined {
  if (!Array.isArray(req.argv) || !req.argv.every((a) => typeof a === 'string') || !verbWord(req.argv)) return undefined;
  if (typeof req.cwd !== 'string' || !req.cwd.startsWith('/') || typeof req.caller !== 'string' || !req.caller) return undefined;
  if (typeof req.config_id !== 'string' || !(req.config === null || typeof req.config === 'string') || req.tty !== false) return undefined;
  const verb = parseVerb(req.argv);
  if (!verb) return undefined;
  // The client found the config file itself; an argv whose --config names another must not borrow this daemon's.
  if (verb.config !== undefined && (verb.config ? resolve(req.cwd, verb.config) : null) !== req.config) return undefined;
  const params = verbParams(verb);
  if (!params) return undefined;
  return { verb, call: { op: 'call', id: verb.verb.id, params, caller: req.caller, yes: verb.yes, tty: false, config: req.config, config_id: req.config_id } };
}

/** Answers the call's replies to the native client in frames, printed as the Node thin client prints them. */
export function nativeReplies(write: (bytes: Buffer | string) => void, verb: ParsedVerb, caller: string): (reply: Reply) => void {
  return (reply) => {
    if (reply.type === 'notice') write(frame('OUT 2', `${reply.message}\n`));
    else if (reply.type === 'result' || reply.type === 'error') {
      // Nothing ran: the full CLI restarts the daemon for this configuration and sends the call.
      if (reply.type === 'error' && reply.error.details?.reason === 'daemon_config_differs') { write(FALLBACK); return; }
      const out = reply.type === 'result'
        ? renderVerb(verb, caller, false, undefined, reply.value as Record<string, unknown>)
        : renderVerb(verb, caller, false, reply.error);
      if (out.stderr) write(frame('OUT 2', out.stderr));
      if (out.stdout) write(frame('OUT 1', out.stdout));
      write(`EXIT ${out.exit}\n`);
    }
  };
}
