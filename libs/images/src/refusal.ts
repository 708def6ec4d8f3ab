// Why an image is refused, with the HTTP status each reason stands for where it reaches a caller.
// `status` and `expose` follow the http-errors convention that libs/http maps to
// {statusCode, error, message}; a connector turns the refusal into an outcome of the job instead.

export type RefusalReason =
  /** the file is over the byte limit */
  | 'too_large'
  /** not a PNG, JPEG or WebP image (or an animation) */
  | 'unsupported_type'
  /** it would decode to more pixels or bytes than the limits allow */
  | 'over_limit'
  /** the header is malformed, or the decoder failed on the bytes */
  | 'undecodable';

const STATUS: Record<RefusalReason, number> = {
  too_large: 413,
  unsupported_type: 415,
  over_limit: 422,
  undecodable: 422,
};

export class ImageRefused extends Error {
  override readonly name = 'ImageRefused';
  readonly status: number;
  readonly expose = true;
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.status = STATUS[reason];
  }
}

/** The refusal of a header that breaks its format's rules. */
export function malformed(format: string, why: string): ImageRefused {
  return new ImageRefused('undecodable', `a malformed ${format} header: ${why}`);
}

export const isRefusalReason = (value: unknown): value is RefusalReason =>
  typeof value === 'string' && Object.hasOwn(STATUS, value);
