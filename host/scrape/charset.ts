// Bytes → text the way a browser picks the encoding, in short: BOM, then the
// Content-Type charset, then a <meta charset> in the first 1024 bytes, else UTF-8.
export function decodeBody(body: Buffer, contentType: string | undefined): string {
  const label = bomCharset(body) ?? headerCharset(contentType) ?? metaCharset(body) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    // An encoding name TextDecoder does not know: UTF-8 is the web's default.
    return new TextDecoder('utf-8').decode(body);
  }
}

function bomCharset(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function headerCharset(contentType: string | undefined): string | undefined {
  return /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
