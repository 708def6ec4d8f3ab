// Verifiers and verification configs, read-only, secrets masked; an admin may reveal a verifier's
// secrets after a recent login (audited).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { can, useMe } from '../Session.tsx';

interface Verifier {
  verifierId: string;
  tag: string;
  name: string;
  type: string;
  config: unknown;
}

interface Config {
  configId: string;
  dvcId: string;
  name: string;
  settings: unknown;
}

export function VerifiersPage() {
  const { me } = useMe();
  const verifiers = useQuery({ queryKey: ['verifiers'], queryFn: () => api<{ items: Verifier[] }>('/verifiers') }); // prettier-ignore
  const configs = useQuery({ queryKey: ['configs'], queryFn: () => api<{ items: Config[] }>('/configs') }); // prettier-ignore
  const reveal = useMutation({ mutationFn: (id: string) => api<Verifier>(`/verifiers/${id}/reveal`, { method: 'POST' }) }); // prettier-ignore
  return (
    <section aria-labelledby="verifiers-title">
      <h1 id="verifiers-title">Verifiers and configs</h1>
      <p className="hint">
        Read-only here: verifiers and configs are changed through the docverify gateway's API with a
        licence.
      </p>
      <h2>Verifiers</h2>
      <ul className="cards">
        {(verifiers.data?.items ?? []).map((v) => (
          <li key={v.verifierId}>
            <strong>{v.name}</strong> <code>{v.tag}</code> ({v.type})
            <pre>
              {JSON.stringify(
                reveal.data?.verifierId === v.verifierId ? reveal.data.config : v.config,
                null,
                2,
              )}
            </pre>
            {can(me, 'admin') ? (
              <button type="button" onClick={() => reveal.mutate(v.verifierId)}>
                Reveal secrets
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <h2>Verification configs</h2>
      <ul className="cards">
        {(configs.data?.items ?? []).map((c) => (
          <li key={c.configId}>
            <strong>{c.name}</strong> <code>{c.dvcId}</code>
            <pre>{JSON.stringify(c.settings, null, 2)}</pre>
          </li>
        ))}
      </ul>
    </section>
  );
}
