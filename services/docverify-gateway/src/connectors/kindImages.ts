// Which image members of a /verify document each kind reads (spec 2.2). A connector job carries
// only its own kind's images: a session's document holds every side, and sending all of them with
// every kind would multiply the bytes on the broker for nothing.
import { VERIFICATION_KINDS, type VerificationKind } from '@idv/contracts';

const withUrls = (members: string[], urlSuffix: 'Url' | '_url') =>
  members.flatMap((m) => [m, `${m}${urlSuffix}`]);

const DOCUMENT_SIDES = withUrls(
  ['front_image', 'back_image', 'barcode_image', 'front_image_flash'],
  '_url',
);

const IMAGES_BY_KIND: Record<VerificationKind, string[]> = {
  face_liveness: withUrls(['liveId'], 'Url'),
  face_compare: withUrls(['liveId', 'image1', 'image2'], 'Url'),
  dl_authenticate: DOCUMENT_SIDES,
  idcard_authenticate: DOCUMENT_SIDES,
  ppt_authenticate: withUrls(['front_image'], '_url'),
  document_liveness: withUrls(['image'], 'Url'),
  dl_verify: [],
  ssn_verify: [],
  person_verify: [],
};

const ALL_IMAGES = new Set(VERIFICATION_KINDS.flatMap((kind) => IMAGES_BY_KIND[kind]));

/** The document as `kind` needs it: every member but the images of other kinds. */
export function documentForKind(
  kind: VerificationKind,
  document: Record<string, unknown>,
): Record<string, unknown> {
  const own = new Set(IMAGES_BY_KIND[kind]);
  return Object.fromEntries(
    Object.entries(document).filter(([member]) => !ALL_IMAGES.has(member) || own.has(member)),
  );
}
