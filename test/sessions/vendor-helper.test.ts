// The vendor helper's session calls (DESIGN 2.4), made as that helper makes them and with none of
// our libraries (@idv/testing/independentClient: node:crypto only): one caller key pair for
// every call, the service public key read from /publickeys, a new requestid per call without
// htm/htu, createDocumentSession read as plain JSON, pollSessionResult every 500 ms decrypting
// with the publicKey the answer carries, until the status is no longer INPROGRESS.
import { expect } from 'chai';
import { CONSENT_TEXT_VERSION } from '@idv/contracts';
import { credentialHeaders, newCaller, seal, shared, unseal } from '@idv/testing/independentClient';
import { startSessionWorld, type SessionWorld } from '@idv/testing/sessionWorld';

interface Created {
  sessionId: string;
  url: string;
  status: string;
  expiresAt: string;
}

describe('sessions: the vendor helper createDocumentSession and pollSessionResult', function () {
  this.timeout(120_000);
  let w: SessionWorld;
  const caller = newCaller();
  let servicePublicKey: string;

  before(async () => {
    w = await startSessionWorld({ name: 'vendor-helper' });
    const keys = (await (await fetch(`${w.url}/publickeys`)).json()) as { publicKey: string };
    servicePublicKey = keys.publicKey;
  });
  after(async () => w?.stop());

  /** POST with the three headers and {data: encrypt(body)}, as the helper sends it */
  const post = async (path: string, body: unknown) => {
    const key = shared(caller, servicePublicKey);
    const res = await fetch(`${w.url}${path}`, {
      method: 'POST',
      headers: {
        ...credentialHeaders({
          licenseKey: w.platform.licences.service,
          servicePublicKey,
          caller,
        }),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ data: seal(key, JSON.stringify(body)) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  /** the helper's pollSessionResult: every 500 ms, decrypting with the answer's publicKey */
  const pollSessionResult = async (sessionId: string, whileWaiting: () => Promise<void>) => {
    const statuses: string[] = [];
    for (let i = 0; i < 120; i++) {
      const res = await post('/document_share_session/result', {
        dvcID: 'kyc-session',
        sessionId,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.publicKey).to.equal(servicePublicKey);
      const view = JSON.parse(
        unseal(shared(caller, res.body.publicKey as string), res.body.data as string),
      ) as Record<string, unknown>;
      statuses.push(view.status as string);
      if (view.status !== 'INPROGRESS') return { view, statuses };
      if (i === 0) await whileWaiting();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`still INPROGRESS after 60 s: ${statuses.join(' ')}`);
  };

  it('creates a session, answers INPROGRESS until it ends, then the decrypted final result', async () => {
    const created = await post('/document_share_session/create', {
      dvcID: 'kyc-session',
      sessionRequest: {
        tenantDNS: 'bank.example',
        communityName: w.platform.community.name,
        // the spec's word (section 2.2), passed on by the helper exactly as its caller gives it
        documentType: 'dl',
        userUID: 'user-testy-vendor',
        did: 'did:example:testy',
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body, 'plain JSON, not encrypted').not.to.have.property('data');
    const session = created.body as unknown as Created;
    expect(session.status).to.equal('INPROGRESS');
    expect(session.sessionId).to.be.a('string');
    expect(new Date(session.expiresAt).getTime()).to.be.greaterThan(Date.now());
    const token = new URL(session.url).pathname.split('/').at(-1)!;

    // the person, on the page, while the helper polls
    const person = async () => {
      const page = w.page(token);
      expect((await page.get('/session')).status).to.equal(200);
      await page.post('/consent', { accepted: true, textVersion: CONSENT_TEXT_VERSION });
      for (const [side, bytes, type] of [
        ['front', w.images.front, 'image/png'],
        ['back', w.images.back, 'image/png'],
        ['selfie', w.images.selfie, 'image/jpeg'],
      ] as const)
        expect((await page.put(side, bytes, type)).body, side).to.include({ accepted: true });
      expect((await page.post('/submit')).status).to.equal(200);
    };

    const { view, statuses } = await pollSessionResult(session.sessionId, person);
    expect(statuses[0]).to.equal('INPROGRESS');
    expect(view).to.include({ status: 'COMPLETED', sessionId: session.sessionId });
    const result = view.result as { status: string; certifications: { kind: string }[] };
    expect(result.status).to.equal('verified');
    expect(result.certifications.map((c) => c.kind)).to.include.members([
      'dl_authenticate',
      'face_compare',
    ]);
    expect(JSON.stringify(view), 'the sealed identifiers stay sealed').not.to.contain(
      'did:example:testy',
    );
  });

  it('takes documentType in every spelling callers use, and names them on a 400', async () => {
    const spellings: [string, string][] = [
      ['dl', 'DL'],
      ['Dl', 'DL'],
      ['DL', 'DL'],
      ['ppt', 'PASSPORT'],
      ['PPT', 'PASSPORT'],
      ['PASSPORT', 'PASSPORT'],
      ['passport', 'PASSPORT'],
      ['idcard', 'IDCARD'],
      ['IdCard', 'IDCARD'],
      ['IDCARD', 'IDCARD'],
    ];
    for (const [given, stored] of spellings) {
      const uuid = crypto.randomUUID(); // the helper sends one fresh UUID as userUID and did
      const created = await post('/document_share_session/create', {
        dvcID: 'kyc-session',
        sessionRequest: {
          tenantDNS: 'bank.example',
          communityName: w.platform.community.name,
          documentType: given,
          userUID: uuid,
          did: uuid,
        },
      });
      expect(created.status, `${given}: ${JSON.stringify(created.body)}`).to.equal(200);
      const token = new URL((created.body as unknown as Created).url).pathname.split('/').at(-1)!;
      const view = (await w.page(token).get('/session')).body as { documentType: string };
      expect(view.documentType, given).to.equal(stored);
    }
    for (const bad of ['visa', 'DL ', '', 'dl\u0000', 'driver licence']) {
      const refused = await post('/document_share_session/create', {
        dvcID: 'kyc-session',
        sessionRequest: { communityName: w.platform.community.name, documentType: bad },
      });
      expect(refused.status, JSON.stringify(bad)).to.equal(400);
      expect(refused.body.message).to.contain('dl, ppt, idcard');
      expect(JSON.stringify(refused.body.details)).to.contain('/sessionRequest/documentType');
    }
  });

  it('refuses what the helper could get wrong with a clear 4xx', async () => {
    const unknown = await post('/document_share_session/result', {
      dvcID: 'kyc-session',
      sessionId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.include({ statusCode: 404 });
    const noConfig = await post('/document_share_session/create', {
      dvcID: 'no-such-config',
      sessionRequest: { communityName: w.platform.community.name },
    });
    expect(noConfig.status).to.be.within(400, 404);
    expect(noConfig.body).to.have.property('message').that.is.a('string');
  });
});
