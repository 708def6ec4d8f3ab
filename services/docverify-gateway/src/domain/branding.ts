// A config's branding beyond its schema: the logo must be what it says, a PNG or WebP of at most
// BRANDING_LOGO_BYTES whose header gives at most BRANDING_LOGO_SIDE pixels a side (a person's
// browser decodes it: a small file must not unpack into a huge picture there).
import { BRANDING_LOGO_BYTES, BRANDING_LOGO_SIDE, type VerificationSettings } from '@idv/contracts';
import { readImageHeader } from '@idv/images';

export interface BrandingIssue {
  path: string;
  message: string;
}

const LOGO_PATH = '/settings/branding/logo';

export function brandingIssues(settings: VerificationSettings | undefined): BrandingIssue[] {
  const logo = settings?.branding?.logo;
  if (!logo) return [];
  const [prefix, data] = logo.split(',', 2) as [string, string];
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > BRANDING_LOGO_BYTES)
    return [{ path: LOGO_PATH, message: `must be at most ${BRANDING_LOGO_BYTES} bytes, not ${bytes.length}` }]; // prettier-ignore
  let header;
  try {
    header = readImageHeader(bytes);
  } catch {
    return [{ path: LOGO_PATH, message: 'is not a PNG or WebP image that can be read' }];
  }
  if (`data:image/${header.format};base64` !== prefix)
    return [{ path: LOGO_PATH, message: `is a ${header.format} image, not what its data URL says` }]; // prettier-ignore
  if (header.width > BRANDING_LOGO_SIDE || header.height > BRANDING_LOGO_SIDE)
    return [{ path: LOGO_PATH, message: `must be at most ${BRANDING_LOGO_SIDE} px a side, not ${header.width}x${header.height}` }]; // prettier-ignore
  return [];
}
