// Every schema compiles with the shared ajv, and the connector contract accepts and refuses
// what the gateway and the workers rely on.
import { expect } from 'chai';
import {
  CONFIG_BY_CONNECTOR,
  CONNECTOR_TYPES,
  ConnectorJob,
  ConnectorReply,
  EVENT_CATALOG,
  connectorQueue,
  validate,
} from '../index.ts';

describe('contracts', () => {
  it('names the work queue of a connector type after it', () => {
    expect(connectorQueue('face_cloud')).to.equal('idv.connector.face_cloud');
    expect(connectorQueue('face_cloud', 'test.q')).to.equal('test.q.face_cloud');
  });

  const configCases: [string, (typeof CONNECTOR_TYPES)[number], unknown, boolean][] = [
    [
      'nested accounts of face compare A',
      'face_compare_a',
      {
        accounts: [
          { apiKey: 'k', url: 'https://a.example', urlVerify: 'https://a.example/verify' },
        ],
        faceIdTimeToLive: 600,
      },
      true,
    ],
    [
      'an account without urlVerify',
      'face_compare_a',
      { accounts: [{ apiKey: 'k', url: 'https://a.example' }] },
      false,
    ],
    ['an unknown member', 'identity_data', { apiKey: 'k', apikey: 'typo' }, false],
    ['a url that is not a URI', 'identity_data', { url: 'not a uri' }, false],
    ['a liveness calibration outside the enum', 'liveness', { calibration: 'EXTREME' }, false],
    ['document auth C without its required members', 'document_auth_c', { license: 'x' }, false],
    [
      'a token configuration of document auth B',
      'document_auth_b',
      {
        tokenConfiguration: {
          dl: {
            flowId: 'f',
            documentType: 'DL',
            seldocTypeFilter: ['DL'],
            confirm: true,
            scores: false,
          },
        },
      },
      true,
    ],
    [
      'a channel response field that does not exist',
      'document_auth_a',
      { scan_channelResponse: ['DQL_Nope'] },
      false,
    ],
  ];
  for (const [name, type, config, ok] of configCases) {
    it(`${ok ? 'accepts' : 'refuses'} ${name}`, () => {
      expect(validate(CONFIG_BY_CONNECTOR[type], config).ok).to.equal(ok);
    });
  }

  it('accepts a connector job and reply and refuses stray members', () => {
    const job = {
      jobId: 'job-1',
      kind: 'face_compare',
      verifier: {
        id: 'v1',
        tag: 'faces',
        type: 'face_cloud',
        connectorUrl: 'http://127.0.0.1:8090/cloud',
      },
      sealed: 'mk1:abc',
      options: {},
      deadline: 1_900_000_000_000,
      sentAt: 1_899_999_995_000,
      context: { tenantId: 't', communityId: 'c', dvcID: 'kyc' },
    };
    const checked = validate(ConnectorJob, job);
    expect(checked.ok).to.equal(true);
    if (checked.ok) expect(checked.value.options.returnRawData).to.equal(false);
    expect(validate(ConnectorJob, { ...job, document: { ssn: '000-00-0000' } }).ok).to.equal(false);
    const { deadline: _deadline, ...undated } = job;
    expect(validate(ConnectorJob, undated).ok, 'a job without its deadline').to.equal(false);
    const reply = {
      jobId: 'job-1',
      kind: 'face_compare',
      verifierTag: 'faces',
      outcome: 'completed',
      authority: 'face_cloud',
      result: { verified: true, status: 'verified', score: 99, reasons: [], threshold: 80 },
      latencyMs: 12,
      queuedMs: 3,
    };
    expect(validate(ConnectorReply, reply).ok).to.equal(true);
    const busy = { ...reply, outcome: 'busy', error: { code: 'verifier_saturated', message: 'm' } };
    expect(validate(ConnectorReply, { ...busy, retryAfterMs: 900 }).ok).to.equal(true);
    expect(validate(ConnectorReply, { ...reply, outcome: 'maybe' }).ok).to.equal(false);
  });

  it('keeps E_IDV_DOCUMENT_VALIDATE open to further members but strict on the pinned ones', () => {
    const schema = EVENT_CATALOG.E_IDV_DOCUMENT_VALIDATE;
    expect(
      validate(schema, { dvcID: 'kyc', docType: 'dl', status: 'verified', more: 1 }).ok,
    ).to.equal(true);
    expect(validate(schema, { dvcID: 'kyc', docType: 'dl' }).ok).to.equal(false);
    expect(validate(schema, { dvcID: 'kyc', docType: 'dl', status: 7 }).ok).to.equal(false);
  });
});
