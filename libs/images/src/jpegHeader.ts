// JPEG header as ITU T.81 defines its markers (B.1.1.2, B.1.1.5, B.2): after SOI a marker is FF
// followed by a marker byte; FF 00 (a stuffed zero), FF D0-D7 (RSTm) and FF 01 (TEM) stand alone
// and are no segment, and any FF may be padded with fill bytes FF. Every other marker opens a
// segment whose length is checked against its content where the content has a shape (SOFn, SOS,
// DHT, DQT, DRI), so a decoder that counts tables cannot fall out of step with this walk. The
// frame header comes before the first scan (B.2.1), so the walk ends there: a second frame
// header before it is refused, and a decoder meeting one after it is held to the same pixel cap
// (decode.ts). Bytes between segments that are no marker are skipped to the next FF, as libjpeg
// does. The walk takes at most MAX_STEPS markers and fill bytes: real headers take a few dozen,
// and a crafted file of nothing but markers must not hold the event loop for its whole length.
// The scans (SOS) are counted over the whole file and more than MAX_SCANS refused as over_limit:
// a progressive decoder walks every block once per scan, so a ~1 MB file of thousands of tiny
// scans would run for as long as it is let. The count is a byte search for FF DA after the first
// scan: entropy data stuffs every FF as FF 00, so FF DA there is a marker, but FF DA inside the
// body of a later segment (a table or APPn between scans) counts too. That over-counts only
// crafted files, never a real one, and the bound stays a bound: real progressive files from
// cameras and libjpeg have about 10 scans.
import type { ImageHeader } from './header.ts';
import { ImageRefused, malformed } from './refusal.ts';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DHT = 0xc4;
const DQT = 0xdb;
const DRI = 0xdd;

/** SOF0-3, 5-7, 9-11, 13-15: C4 (DHT), C8 (JPG) and CC (DAC) are no frame headers. */
const isFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== DHT && m !== 0xc8 && m !== 0xcc;
/** Markers without a segment: stuffed zero, TEM, RSTm (and a repeated SOI, tolerated). */
const standsAlone = (m: number) => m === 0x00 || m === 0x01 || (m >= 0xd0 && m <= SOI);

const refuse = (why: string) => malformed('JPEG', why);
const MAX_STEPS = 1024;
/** Scans a JPEG may have: libjpeg's progressive files have 10, a baseline one 1 (or 1 per component). */
export const MAX_SCANS = 32;

interface Frame {
  width: number;
  height: number;
  channels: number;
  bitsPerChannel: number;
}

export function jpegHeader(bytes: Buffer): ImageHeader {
  let frame: Frame | undefined;
  const steps = { left: MAX_STEPS };
  for (let at = 2; ;) {
    const found = nextMarker(bytes, at, steps);
    if (!found || found.marker === EOI) break;
    const { marker } = found;
    at = found.at + 2;
    if (standsAlone(marker)) continue;
    if (at + 2 > bytes.length) throw refuse('a segment with no length');
    const length = bytes.readUInt16BE(at);
    if (length < 2 || at + length > bytes.length)
      throw refuse(`segment FF${hex(marker)} of length ${length} runs past the file`);
    const body = bytes.subarray(at + 2, at + length);
    if (isFrame(marker)) {
      if (frame) throw refuse('a second frame header (SOF)');
      frame = frameOf(body);
    } else if (!shapeFits(marker, body)) {
      throw refuse(`segment FF${hex(marker)} does not fill its length`);
    }
    if (marker === SOS) {
      if (!frame) throw refuse('a scan before the frame header');
      countScans(bytes, at + length);
      break;
    }
    at += length;
  }
  if (!frame) throw refuse('no frame header (SOF)');
  return { format: 'jpeg', ...frame, interlaced: false };
}

/** Refuses a file with over MAX_SCANS scans: the first, then every FF DA from `at` on (see the top). */
function countScans(bytes: Buffer, at: number): void {
  let scans = 1;
  for (let ff = bytes.indexOf(SOS_MARKER, at); ff >= 0; ff = bytes.indexOf(SOS_MARKER, ff + 2)) {
    if (++scans > MAX_SCANS)
      throw new ImageRefused(
        'over_limit',
        `the JPEG has more than ${MAX_SCANS} scans, over the limit of ${MAX_SCANS}`,
      );
  }
}
const SOS_MARKER = Buffer.from([0xff, SOS]);

/** The next marker at or after `at`: skips bytes that are no FF, and fill bytes FF FF. */
function nextMarker(
  bytes: Buffer,
  at: number,
  steps: { left: number },
): { at: number; marker: number } | undefined {
  let ff = bytes.indexOf(0xff, at);
  while (ff >= 0 && ff + 1 < bytes.length) {
    if (--steps.left < 0) throw refuse(`over ${MAX_STEPS} markers before the first scan`);
    const marker = bytes[ff + 1]!;
    if (marker !== 0xff) return { at: ff, marker };
    ff += 1; // a fill byte: the next FF may open the marker
  }
  return undefined;
}

/** SOFn (B.2.2): P, Y, X, Nf, then Nf component specs of 3 bytes. */
function frameOf(body: Buffer): Frame {
  if (body.length < 6) throw refuse('a short frame header');
  const precision = body[0]!;
  const height = body.readUInt16BE(1);
  const width = body.readUInt16BE(3);
  const channels = body[5]!;
  if (channels < 1 || channels > 4 || body.length !== 6 + 3 * channels)
    throw refuse(`a frame header of ${channels} components in ${body.length + 2} bytes`);
  if (precision < 2 || precision > 16) throw refuse(`sample precision ${precision}`);
  // height 0 defers it to a DNL marker after the first scan: decoders here do not follow that
  if (width === 0 || height === 0) throw refuse(`frame ${width}x${height}`);
  return { width, height, channels, bitsPerChannel: precision };
}

/** Segments whose content has a size of its own: it must fill the segment's length exactly. */
function shapeFits(marker: number, body: Buffer): boolean {
  switch (marker) {
    case SOS:
      return body.length >= 1 && body.length === 4 + 2 * body[0]!;
    case DRI:
      return body.length === 2;
    case DHT:
      return tablesFill(
        body,
        (at) => 17 + body.subarray(at + 1, at + 17).reduce((a, b) => a + b, 0),
      );
    case DQT:
      // Pq 0: 8-bit entries, 1: 16-bit; anything else is no table (NaN ends the walk unfilled)
      return tablesFill(body, (at) => (body[at]! >> 4 > 1 ? NaN : 1 + 64 * ((body[at]! >> 4) + 1)));
    default:
      return true;
  }
}

/** Whether tables of the given sizes, one after another, end exactly at the end of `body`. */
function tablesFill(body: Buffer, sizeAt: (at: number) => number): boolean {
  let at = 0;
  while (at < body.length) at += sizeAt(at);
  return at === body.length && body.length > 0;
}

const hex = (marker: number) => marker.toString(16).toUpperCase().padStart(2, '0');
