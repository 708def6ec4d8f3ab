// Real images can name their fixture too: a PNG tEXt chunk with keyword `fixture`, or a JPEG
// comment (COM segment), holds the name (`DOC:testy`, `FACE:testy`, ...); an image may carry
// several (a licence front is a document with a face on it). Images the capture checks accept
// must be real pictures, so the sandbox reads the name from inside them.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngFixtures(bytes: Buffer): string[] {
  const names: string[] = [];
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length));
    if (type === 'tEXt') {
      const nul = body.indexOf(0);
      if (nul > 0 && body.toString('latin1', 0, nul) === 'fixture')
        names.push(body.toString('latin1', nul + 1));
    }
    if (type === 'IDAT' || type === 'IEND') break;
    at += 12 + length;
  }
  return names;
}

function jpegFixtures(bytes: Buffer): string[] {
  const names: string[] = [];
  for (let at = 2; at + 4 <= bytes.length && bytes[at] === 0xff;) {
    const marker = bytes[at + 1]!;
    if (marker === 0xda || marker === 0xd9) break; // image data or end: no headers after
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xfe) names.push(bytes.toString('latin1', at + 4, at + 2 + length));
    at += 2 + length;
  }
  return names;
}

/** The fixture names a PNG or JPEG carries, one per line; undefined for any other bytes. */
export function embeddedFixture(bytes: Buffer): string | undefined {
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE))
    return pngFixtures(bytes).join('\n');
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8)
    return jpegFixtures(bytes).join('\n');
  return undefined;
}
