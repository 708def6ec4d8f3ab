// Upload bodies the gateway holds at once: an upload is admitted (after its page token named a
// live session, before a byte of its body is read) only while the bytes it declares fit under
// the gateway's bound with the others in flight (until its response is over: the body is held
// while it is checked), and only when no other upload of its session is still sending its body
// (one sent and being checked is held to checkAdmission.ts: check_unavailable). So no one holding
// a link, or many links, can make the gateway buffer N x the image limit. The counts are this process's own; an upload without a Content-Length counts as the
// image limit, the most its body parser lets through.

export const UPLOAD_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

export class UploadAdmission {
  private readonly sessions = new Set<string>();
  private bytes = 0;

  constructor(private readonly maxBytes = UPLOAD_BYTES_IN_FLIGHT) {}

  /**
   * Or why it may not be read now; else `bodyRead` to call once the body is in (frees the session's
   * place) and `release` once the request is over (frees all). Both may be called more than once.
   */
  enter(
    sessionId: string,
    bytes: number,
  ): { bodyRead: () => void; release: () => void } | { busy: string } {
    if (this.sessions.has(sessionId))
      return { busy: 'another photo of this session is being uploaded' };
    // one upload is always admitted, so a bound below the image limit cannot refuse everything
    if (this.bytes > 0 && this.bytes + bytes > this.maxBytes)
      return { busy: 'too many photos are being uploaded' };
    this.sessions.add(sessionId);
    this.bytes += bytes;
    let read = false;
    let released = false;
    const bodyRead = () => {
      if (read) return;
      read = true;
      this.sessions.delete(sessionId);
    };
    return {
      bodyRead,
      release: () => {
        bodyRead();
        if (released) return;
        released = true;
        this.bytes -= bytes;
      },
    };
  }

  /** Bytes admitted and not yet released. */
  get inFlight(): number {
    return this.bytes;
  }
}
