// A config's branding beyond its schema: the logo must be what it says, a PNG or WebP of at most
// BRANDING_LOGO_BYTES whose header gives at most BRANDING_LOGO_SIDE pixels a side (a person's
// browser decodes it: a small file must not unpack into a huge picture there). The capture page
// gets the logo at an address of its own, versioned by its content, so a browser fetches it once.
import { createHash } from 'node:crypto';
import {
  BRANDING_LOGO_BYTES,
  BRANDING_LOGO_SIDE,
  type Branding,
  type CaptureSession,
  type VerificationSettings,
} from '@idv/contracts';
import { readImageHeader } from '@idv/images';

/** A logo's data URL as the image it holds: its media type and bytes. */
export function logoImage(dataUrl: string): { type: string; bytes: Buffer } {
  const [prefix, data] = dataUrl.split(',', 2) as [string, string];
  const type = prefix.slice('data:'.length, -';base64'.length);
  return { type, bytes: Buffer.from(data, 'base64') };
}

/** The branding as the page of the session of `token` gets it: the logo by address. */
export function pageBranding(
  branding: Branding | undefined,
  token: string,
): CaptureSession['branding'] {
  if (!branding) return null;
  const { logo, ...rest } = branding;
  if (!logo) return rest;
  const version = createHash('sha256').update(logo).digest('hex').slice(0, 16);
  return { ...rest, logoUrl: `/capture/${token}/logo?v=${version}` };
}

export interface BrandingIssue {
  path: string;
  message: string;
}

const LOGO_PATH = '/settings/branding/logo';

export function brandingIssues(settings: VerificationSettings | undefined): BrandingIssue[] {
  const logo = settings?.branding?.logo;
  if (!logo) return [];
  const { type, bytes } = logoImage(logo);
  if (bytes.length > BRANDING_LOGO_BYTES)
    return [
      {
        path: LOGO_PATH,
        message: `must be at most ${BRANDING_LOGO_BYTES} bytes, not ${bytes.length}`,
      },
    ];
  let header;
  try {
    header = readImageHeader(bytes);
  } catch {
    return [{ path: LOGO_PATH, message: 'is not a PNG or WebP image that can be read' }];
  }
  if (`image/${header.format}` !== type)
    return [
      { path: LOGO_PATH, message: `is a ${header.format} image, not what its data URL says` },
    ];
  if (header.width > BRANDING_LOGO_SIDE || header.height > BRANDING_LOGO_SIDE)
    return [
      {
        path: LOGO_PATH,
        message: `must be at most ${BRANDING_LOGO_SIDE} px a side, not ${header.width}x${header.height}`,
      },
    ];
  return [];
}
