// Verifiers and verification configs, read-only, secrets masked; an admin may reveal a verifier's
// secrets after a recent login (audited). A config shows which verifiers run each check beside its
// settings.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { can, communityName, useMe } from '../Session.tsx';

interface Verifier {
  verifierId: string;
  communityId: string;
  tag: string;
  name: string;
  type: string;
  connectorUrl: string;
  config: unknown;
}

interface Config {
  configId: string;
  communityId: string;
  dvcId: string;
  name: string;
  arrays: Record<string, { verifier: string; skip?: boolean }[]>;
  settings: unknown;
}

/** The name a config is created with when its creator gives none (contracts' default). */
const UNNAMED = 'no-name';

const hasSettings = (settings: unknown) =>
  !!settings && typeof settings === 'object' && Object.keys(settings).length > 0;

function ConfigCard({ config }: { config: Config }) {
  const { communities } = useMe();
  const checks = Object.entries(config.arrays ?? {}).filter(([, items]) => items.length > 0);
  return (
    <li>
      <h3 className="card-title">
        <code>{config.dvcId}</code>
        {config.name !== UNNAMED ? ` ${config.name}` : ''}
      </h3>
      <dl className="facts">
        <dt>Community</dt>
        <dd>{communityName(communities, config.communityId)}</dd>
      </dl>
      <table>
        <caption>Checks and the verifiers that run them</caption>
        <tbody>
          {checks.map(([kind, items]) => (
            <tr key={kind}>
              <th scope="row">{kind}</th>
              <td>{items.map((i) => `${i.verifier}${i.skip ? ' (skipped)' : ''}`).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {hasSettings(config.settings) ? (
        <>
          <p className="label">Settings</p>
          <pre>{JSON.stringify(config.settings, null, 2)}</pre>
        </>
      ) : (
        <p className="hint">No settings: the defaults apply.</p>
      )}
    </li>
  );
}

export function VerifiersPage() {
  const { me, communities } = useMe();
  const verifiers = useQuery({ queryKey: ['verifiers'], queryFn: () => api<{ items: Verifier[] }>('/verifiers') }); // prettier-ignore
  const configs = useQuery({ queryKey: ['configs'], queryFn: () => api<{ items: Config[] }>('/configs') }); // prettier-ignore
  const reveal = useMutation({ mutationFn: (id: string) => api<Verifier>(`/verifiers/${id}/reveal`, { method: 'POST' }) }); // prettier-ignore
  const error = verifiers.error ?? configs.error ?? reveal.error;
  return (
    <section aria-labelledby="verifiers-title">
      <h1 id="verifiers-title">Verifiers and configs</h1>
      <p className="hint">
        Read-only here: verifiers and configs are changed through the docverify gateway's API with a
        licence.
      </p>
      {error ? (
        <p role="alert" className="error">
          {error.message}
        </p>
      ) : null}
      <h2>Verifiers</h2>
      {verifiers.data?.items.length === 0 ? <p className="empty">No verifier.</p> : null}
      <ul className="cards grid">
        {(verifiers.data?.items ?? []).map((v) => {
          const revealed = reveal.data?.verifierId === v.verifierId ? reveal.data : undefined;
          return (
            <li key={v.verifierId}>
              <h3 className="card-title">
                {v.name} <code>{v.tag}</code>
              </h3>
              <dl className="facts">
                <dt>Type</dt>
                <dd>{v.type}</dd>
                <dt>Community</dt>
                <dd>{communityName(communities, v.communityId)}</dd>
                <dt>Connector</dt>
                <dd>
                  <code className="long">{v.connectorUrl}</code>
                </dd>
              </dl>
              <p className="label">
                {revealed
                  ? 'Config, secrets shown (this read is audited)'
                  : 'Config, secrets masked'}
              </p>
              <pre>{JSON.stringify((revealed ?? v).config, null, 2)}</pre>
              {can(me, 'admin') && !revealed ? (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => reveal.mutate(v.verifierId)}
                >
                  Reveal secrets<span className="visually-hidden"> of {v.name}</span>
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <h2>Verification configs</h2>
      {configs.data?.items.length === 0 ? <p className="empty">No verification config.</p> : null}
      <ul className="cards grid">
        {(configs.data?.items ?? []).map((c) => (
          <ConfigCard key={c.configId} config={c} />
        ))}
      </ul>
    </section>
  );
}
