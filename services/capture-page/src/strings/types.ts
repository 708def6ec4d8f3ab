// The API types the page uses, from the shared contract (type-only: nothing of the contract's
// runtime, such as its schema library, ends up in the page's bundle).
import type { CaptureSession as ContractSession, CaptureSide } from '@idv/contracts';

export type {
  CaptureImageVerdict,
  CaptureProblem,
  CaptureSide,
  SessionDocumentType,
  SessionState,
} from '@idv/contracts';

/** GET /capture-api/session, its per-side maps keyed by side (the schema's static type is loose). */
export type CaptureSession = Omit<ContractSession, 'attempts' | 'accepted'> & {
  attempts: Partial<Record<CaptureSide, number>>;
  accepted: Partial<Record<CaptureSide, boolean>>;
};

/** The pictures of a good photo and of its faults (components/Examples.tsx draws them). */
export type Example = 'good' | 'cutOff' | 'glare' | 'blurred' | 'tooFar' | 'dark' | 'twoFaces';
