// The option lists and constants of GET /.well-known (spec 2.1), with labels written for people.
import type { DocverifyWellKnown } from '@idv/contracts';

const nameCriteria = [
  { value: 'eq' as const, ignoreMiddleNames: false },
  {
    value: 'fuzzyMatch' as const,
    ignoreMiddleNames: false,
    minMatchScore: { min: 70 as const, max: 100 as const, default: 85 as const },
  },
];

export const WELL_KNOWN: DocverifyWellKnown = {
  journeyTypes: [
    {
      label: 'Identity check with face comparison',
      description: 'Verify the document and compare the selfie with the portrait on the document.',
      value: 'KYC_WITH_FACE_COMPARISON',
    },
    {
      label: 'Document verification only',
      description: 'Verify the document without comparing faces.',
      value: 'DOCUMENT_VERIFICATION_ONLY',
    },
  ],
  documentsList: [
    { country: 'USA', region: 'ALL', documentType: 'DL' },
    { country: 'USA', region: 'ALL', documentType: 'IDCARD' },
    { country: 'USA', region: 'ALL', documentType: 'PASSPORT' },
    { country: 'CAN', region: 'ALL', documentType: 'DL' },
    { country: 'ALL', region: 'ALL', documentType: 'PASSPORT' },
  ],
  dataRetention: [
    {
      label: 'Do not keep personal data: discard it immediately',
      value: { pii_retention_off: true },
    },
    {
      label: 'Keep personal data until the result has been retrieved, then discard it',
      value: { pii_retention_off: false, pii_retention_ttl: -1 },
    },
    {
      label: 'Keep personal data for a set time, then discard it',
      value: { pii_retention_off: false, pii_retention_ttl: 0 },
    },
  ],
  dataComparisonAttributes: [
    { label: 'First name', module: 'firstname check', criteriaOptions: nameCriteria },
    { label: 'Last name', module: 'lastname check', criteriaOptions: nameCriteria },
    { label: 'Date of birth', module: 'dob check', criteriaOptions: [{ value: 'eq' }] },
  ],
  usecase: {
    contexts: [
      { label: 'Remote: the person verifies on their own device', value: 'REMOTE' },
      { label: 'In person: an agent is with the person', value: 'IN_PERSON' },
    ],
    documentVerificationPolicy: [
      {
        label: 'Permissive',
        description: 'Fewer genuine documents rejected, more fraudulent ones accepted.',
        value: 'PERMISSIVE',
      },
      {
        label: 'Standard',
        description: 'Balanced between false rejects and false accepts. Recommended.',
        value: 'STANDARD',
      },
      {
        label: 'Strict',
        description: 'More genuine documents rejected, fewer fraudulent ones accepted.',
        value: 'STRICT',
      },
      {
        label: 'Very strict',
        description: 'The most false rejects and the fewest false accepts.',
        value: 'VERY_STRICT',
      },
    ],
  },
  retryCount: { maxValue: 4, defaultValue: 2 },
  selfieRetryCount: { maxValue: 10, defaultValue: 3 },
  expireSessionInMin: 10080,
  abandonSessionInMin: 60,
  livenessLevels: [
    {
      label: 'Regular',
      description: 'The recommended balance of security and ease.',
      value: 'REGULAR',
    },
    { label: 'Soft', description: 'Easier to pass; for low-risk journeys.', value: 'SOFT' },
    {
      label: 'Hardened',
      description: 'Hardest to spoof; for high-risk journeys.',
      value: 'HARDENED',
    },
  ],
  faceMatchingScore: 50,
  selfieCaptureModes: [
    {
      label: 'Automatic',
      description: 'The selfie is taken as soon as a face is well placed.',
      value: 'auto',
    },
    {
      label: 'Manual with face detection',
      description: 'The person presses the button once a face is detected.',
      value: 'manualWithFaceDetection',
    },
  ],
};
