// The access log's path helpers: decoding however deep, one slash, and the credential-shape mask
// that leaves ids, hashes and names alone.
import { expect } from 'chai';
import { decodedPath, maskCredentialShapes, normalisedPath } from '../src/logPath.ts';

const TOKEN = 'Xy0-_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789ab'; // 43 characters, as a page token

describe('http: what the access log writes of a path', () => {
  it('decodes every %XX, twice-encoded ones too, leaves malformed ones, drops the query', () => {
    expect(decodedPath('/%63apture/x')).to.equal('/capture/x');
    expect(decodedPath('/%2563apture/x')).to.equal('/capture/x');
    expect(decodedPath('/a%zzb%4')).to.equal('/a%zzb%4');
    expect(decodedPath('/p?token=secret')).to.equal('/p');
  });

  it('stops after four layers of encoding: a deeper path is logged as undecodable, none of it', () => {
    expect(decodedPath('/%25252563apture/x')).to.equal('/capture/x');
    // %2525…2541: each layer decodes to the next (about 15 KB, as far as a header allows)
    const deep = `/%${'25'.repeat(7000)}41/${TOKEN}`;
    expect(decodedPath(deep)).to.equal('/:undecodable');
    expect(maskCredentialShapes(deep)).to.equal('/:undecodable');
  });

  it('reads doubled and back slashes as one slash', () => {
    expect(normalisedPath('//capture\\\\x%2F%5Cy')).to.equal('/capture/x/y');
  });

  it('masks what looks like a token, however encoded, and nothing else', () => {
    expect(maskCredentialShapes(`/x/${TOKEN}`)).to.equal('/x/:secret');
    expect(
      maskCredentialShapes(`/x/%${TOKEN.charCodeAt(0).toString(16)}${TOKEN.slice(1)}`),
    ).to.equal('/x/:secret');
    const kept = [
      '/webhook/123e4567-e89b-12d3-a456-426614174000',
      `/h/${'ab12'.repeat(16)}`,
      '/community/a-rather-long-community-name-for-tests/x',
      '/a%20b',
    ];
    for (const path of kept) expect(maskCredentialShapes(path)).to.equal(path);
    expect(maskCredentialShapes('/a?token=x')).to.equal('/a');
  });
});
