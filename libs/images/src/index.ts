// Public surface of libs/images, the one way an image the platform receives is read: a strict
// header (PNG, JPEG, WebP), limits on bytes, pixels and decoded bytes checked on it, and a pool
// of worker threads that decode. The thread side is '@idv/images/worker'.
export { decodeCost, decodedBytes, readImageHeader, sniffFormat } from './header.ts';
export type { ImageFormat, ImageHeader } from './header.ts';
export { admitImage, DEFAULT_IMAGE_LIMITS, type ImageLimits } from './limits.ts';
export {
  DECODER_RESOURCE_LIMITS,
  ImageJobTimedOut,
  ImagePool,
  type ImagePoolOptions,
  type RunOptions,
} from './pool.ts';
export { ImageRefused, type RefusalReason } from './refusal.ts';
export type { Bitmap } from './decode.ts';
