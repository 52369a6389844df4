// Reading a secret's value for `webcap secrets set`: from a terminal with echo
// off (raw mode, Backspace and Ctrl-C understood), else all of stdin with one
// trailing newline dropped (`printf 'pw\n' | webcap secrets set …` stores "pw").
import { WebcapError } from '../../manifests/errors.js';

export async function readSecretValue(prompt: string, input: NodeJS.ReadStream = process.stdin): Promise<string> {
  const value = input.isTTY ? await readHidden(prompt, input) : await readAll(input);
  if (!value) throw new WebcapError('invalid_params', 'no value given: type it at the prompt, or pipe it on stdin (never as an argument)', { field: 'secret' });
  return value;
}

function dropTrailingNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

async function readAll(input: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.from(chunk as Buffer));
  return dropTrailingNewline(Buffer.concat(chunks).toString('utf8'));
}

function readHidden(prompt: string, input: NodeJS.ReadStream): Promise<string> {
  // Echo goes off before the prompt shows: a person typing as soon as they see it must not see the value echoed.
  input.setRawMode(true);
  process.stderr.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const done = (err?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (err) reject(err); else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
        if (ch === '\u0003') return done(new WebcapError('invalid_params', 'cancelled: nothing was stored', { field: 'secret' }));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    input.on('data', onData);
  });
}
