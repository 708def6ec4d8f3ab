// The cases of each connector type against the provider sandbox: the document, the config and
// the answer the sandbox's fixtures lead to. Shared by the adapter and concurrency suites.
import { expect } from 'chai';
import type { ConnectorType, VerificationKind } from '@idv/contracts';
import { CLOUD_ACCESS_KEY, CLOUD_SECRET_KEY } from '../../provider-sandbox/src/fixtures.ts';
import { image } from './harness.ts';

export const testy = {
  firstName: 'Testy',
  lastName: 'McTestface',
  dob: '19700101',
  ssn: '000-00-0000',
};
export const faces = (a: string, b: string) => ({
  image1: image(`FACE:${a}`),
  image2: image(`FACE:${b}`),
});
const dl = (name: string) => ({ type: 'dl', front_image: image(`DOC:${name}`) });
export const key = 'sandbox-key';

export interface Case {
  name: string;
  type: ConnectorType;
  kind: VerificationKind;
  config: (sandbox: string) => Record<string, unknown>;
  document: Record<string, unknown>;
  status: 'verified' | 'not_verified' | 'inconclusive';
  check?: (result: Record<string, unknown>) => void;
}

const faceA = (sandbox: string) => ({
  accounts: [{ apiKey: key, url: sandbox, urlVerify: `${sandbox}/face/v1.0/verify` }],
  detectionModel: 'detection_03',
  recognitionModel: 'recognition_04',
  returnFaceLandmarks: false,
  faceIdTimeToLive: 120,
});
export const cloud = {
  awsAccessKey: CLOUD_ACCESS_KEY,
  awsSecretKey: CLOUD_SECRET_KEY,
  awsRegion: 'eu-west-1',
};
const docC = (sandbox: string) => ({
  license: key,
  clientId: 'client',
  clientSecret: key,
  verifierUrl: `${sandbox}/docc/v1/verify`,
  verifierUrlV2: `${sandbox}/docc/v2/verify`,
  document_share_session_enabled: false,
});
const dldv = { messageOriginatorId: 'IDV', messageDestinationId: 'REG' };
const licence = {
  documentType: 'DL',
  country: 'US',
  documentId: 'D0000001',
  state: 'CA',
  ...testy,
};

export const CASES: Case[] = [
  {
    name: 'licence registry fails over to the value-free secondary',
    type: 'license_registry',
    kind: 'dl_verify',
    config: (s) => ({
      ...dldv,
      primaryAuthUrl: `${s}/fault/status=503/dldv/primary/auth`,
      secondaryAuthUrl: `${s}/dldv/secondary/auth`,
      valueFreeDldvSecondaryUrl: `${s}/dldv/secondary/verify-value-free`,
    }),
    document: licence,
    status: 'verified',
  },
  {
    name: 'face compare A fails over to the next account',
    type: 'face_compare_a',
    kind: 'face_compare',
    config: (s) => ({
      accounts: [
        { apiKey: 'revoked', url: s, urlVerify: `${s}/face/v1.0/verify` },
        ...faceA(s).accounts,
      ],
    }),
    document: faces('testy', 'testy'),
    status: 'verified',
  },
  {
    name: 'licence registry match',
    type: 'license_registry',
    kind: 'dl_verify',
    config: () => dldv,
    document: licence,
    status: 'verified',
    check: (r) => expect(r.fieldMatches).to.include({ firstName: true, dob: true }),
  },
  {
    name: 'licence registry mismatch',
    type: 'license_registry',
    kind: 'dl_verify',
    config: () => dldv,
    document: { ...licence, dob: '19990101' },
    status: 'not_verified',
    check: (r) => expect(r.reasons).to.deep.equal(['dob_mismatch']),
  },
  {
    name: 'licence registry unknown',
    type: 'license_registry',
    kind: 'dl_verify',
    config: () => dldv,
    document: { ...licence, documentId: 'D9999999' },
    status: 'not_verified',
    check: (r) => expect(r.reasons).to.deep.equal(['record_not_found']),
  },
  {
    name: 'identity data ssn match',
    type: 'identity_data',
    kind: 'ssn_verify',
    config: () => ({ apiKey: key }),
    document: testy,
    status: 'verified',
  },
  {
    name: 'identity data ssn mismatch',
    type: 'identity_data',
    kind: 'ssn_verify',
    config: () => ({ apiKey: key }),
    document: { ...testy, ssn: '000-00-0009' },
    status: 'not_verified',
  },
  {
    name: 'identity data unknown person',
    type: 'identity_data',
    kind: 'person_verify',
    config: (s) => ({ apiKey: key, url: `${s}/identity/v1/verify` }),
    document: { firstName: 'Nobody', lastName: 'Known', dob: '20000101' },
    status: 'not_verified',
  },
  {
    name: 'face liveness live (HARDENED)',
    type: 'liveness',
    kind: 'face_liveness',
    config: () => ({ apiKey: key, calibration: 'HARDENED' }),
    document: { liveId: image('LIVE') },
    status: 'verified',
    check: (r) => expect(r.calibration).to.equal('HARDENED'),
  },
  {
    name: 'face liveness 0.6 fails HARDENED from metaHeaders',
    type: 'liveness',
    kind: 'face_liveness',
    config: () => ({ apiKey: key }),
    document: { liveId: image('LIVE:0.6'), metaHeaders: { calibration: 'HARDENED' } },
    status: 'not_verified',
  },
  {
    name: 'document liveness',
    type: 'liveness',
    kind: 'document_liveness',
    config: () => ({ documentApiKey: key }),
    document: { image: image('DOC:testy') },
    status: 'verified',
  },
  {
    name: 'face compare A match',
    type: 'face_compare_a',
    kind: 'face_compare',
    config: faceA,
    document: faces('testy', 'testy'),
    status: 'verified',
    check: (r) => expect(r.threshold).to.equal(50),
  },
  {
    name: 'face compare A mismatch by URL',
    type: 'face_compare_a',
    kind: 'face_compare',
    config: faceA,
    document: {
      liveIdUrl: 'https://bucket.example/FACE:testy',
      image2Url: 'https://bucket.example/FACE:fakey',
    },
    status: 'not_verified',
  },
  {
    name: 'face compare A no face',
    type: 'face_compare_a',
    kind: 'face_compare',
    config: faceA,
    document: { image1: image('a cat'), image2: image('FACE:testy') },
    status: 'not_verified',
    check: (r) => expect(r.reasons).to.deep.equal(['no_face_detected']),
  },
  {
    name: 'face compare B match',
    type: 'face_compare_b',
    kind: 'face_compare',
    config: () => ({ apiKey: key }),
    document: faces('testy', 'testy'),
    status: 'verified',
  },
  {
    name: 'face compare B mismatch',
    type: 'face_compare_b',
    kind: 'face_compare',
    config: () => ({ apiKey: key }),
    document: faces('testy', 'fakey'),
    status: 'not_verified',
  },
  {
    name: 'agent review approves',
    type: 'agent_review',
    kind: 'dl_authenticate',
    config: () => ({ apiKey: key }),
    document: dl('testy'),
    status: 'verified',
    check: (r) =>
      expect(r.extracted).to.include({ lastName: 'McTestface', documentNumber: 'D0000001' }),
  },
  {
    name: 'agent review pending',
    type: 'agent_review',
    kind: 'dl_authenticate',
    config: () => ({ apiKey: key }),
    document: dl('blurry'),
    status: 'inconclusive',
  },
  {
    name: 'auto review fails expired',
    type: 'auto_review',
    kind: 'idcard_authenticate',
    config: () => ({ apiKey: key }),
    document: { type: 'idcard', front_image: image('DOC:expired') },
    status: 'not_verified',
    check: (r) => expect(r.checks).to.deep.equal({ genuine: true, notExpired: false }),
  },
  {
    name: 'people search person match',
    type: 'people_search',
    kind: 'person_verify',
    config: () => ({ apName: 'idv', apPassword: key, personSearchType: 'full' }),
    document: testy,
    status: 'verified',
  },
  {
    name: 'people search ssn unknown',
    type: 'people_search',
    kind: 'ssn_verify',
    config: () => ({ apName: 'idv', apPassword: key }),
    document: { ssn: '000-00-0042' },
    status: 'not_verified',
  },
  {
    name: 'document auth A passes',
    type: 'document_auth_a',
    kind: 'dl_authenticate',
    config: () => ({
      airAccessKey: key,
      airSecretToken: key,
      scan_channelResponse: ['DQL_Final_Surname_Result'],
    }),
    document: dl('testy'),
    status: 'verified',
    check: (r) => expect(r.extracted).to.deep.equal({ lastName: 'McTestface' }),
  },
  {
    name: 'document auth A forged',
    type: 'document_auth_a',
    kind: 'dl_authenticate',
    config: () => ({ airAccessKey: key, airSecretToken: key }),
    document: dl('forged'),
    status: 'not_verified',
  },
  {
    name: 'document auth A face',
    type: 'document_auth_a',
    kind: 'face_compare',
    config: () => ({ faceAPIKey: key }),
    document: faces('testy', 'testy'),
    status: 'verified',
  },
  {
    name: 'document auth B passport',
    type: 'document_auth_b',
    kind: 'ppt_authenticate',
    config: () => ({
      clientId: 'c',
      clientSecretKey: key,
      apiKey: key,
      tokenConfiguration: {
        ppt: {
          flowId: 'f1',
          documentType: 'passport',
          seldocTypeFilter: [],
          confirm: true,
          scores: true,
        },
      },
    }),
    document: { type: 'ppt', front_image: image('DOC:testy') },
    status: 'verified',
    check: (r) => expect(r.score).to.equal(91),
  },
  {
    name: 'document auth B face mismatch',
    type: 'document_auth_b',
    kind: 'face_compare',
    config: () => ({ clientId: 'c', clientSecretKey: key, apiKey: key, faceAPIKey: key }),
    document: faces('testy', 'fakey'),
    status: 'not_verified',
  },
  {
    name: 'document auth C authentic',
    type: 'document_auth_c',
    kind: 'dl_authenticate',
    config: docC,
    document: dl('testy'),
    status: 'verified',
  },
  {
    name: 'document auth C falls back to v1',
    type: 'document_auth_c',
    kind: 'dl_authenticate',
    config: (s) => ({ ...docC(s), verifierUrlV2: `${s}/docc/v9/verify` }),
    document: dl('forged'),
    status: 'not_verified',
  },
  {
    name: 'face cloud match',
    type: 'face_cloud',
    kind: 'face_compare',
    config: () => cloud,
    document: faces('testy', 'testy'),
    status: 'verified',
    check: (r) => expect(r).to.include({ threshold: 80, score: 96.5 }),
  },
  {
    name: 'face cloud mismatch',
    type: 'face_cloud',
    kind: 'face_compare',
    config: () => cloud,
    document: faces('testy', 'fakey'),
    status: 'not_verified',
  },
];
