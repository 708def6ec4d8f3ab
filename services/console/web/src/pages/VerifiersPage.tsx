// Verifiers and verification configs, secrets masked; an admin may reveal a verifier's secrets
// and edit verifiers and configs after a recent login (each audited). A config shows which
// verifiers run each check beside its settings.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { can, communityName, useMe } from '../Session.tsx';
import { ConfigEditForm, VerifierEditForm, type Config, type Verifier } from './EditForms.tsx';

/** The name a config is created with when its creator gives none (contracts' default). */
const UNNAMED = 'no-name';

const hasSettings = (settings: unknown) =>
  !!settings && typeof settings === 'object' && Object.keys(settings).length > 0;

/** Which card is being edited, and the last one saved (its confirmation). */
interface Editing {
  editing: string | undefined;
  saved: string | undefined;
  edit(id: string | undefined, saved?: boolean): void;
}

function useEditing(): Editing {
  const [editing, setEditing] = useState<string>();
  const [saved, setSaved] = useState<string>();
  return {
    editing,
    saved,
    edit(id, done) {
      setSaved(done ? editing : undefined);
      setEditing(id);
    },
  };
}

function EditButton(props: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="secondary" onClick={props.onClick}>
      Edit<span className="visually-hidden"> {props.label}</span>
    </button>
  );
}

const Saved = () => (
  <p role="status" className="ok">
    Saved. The change is in the audit log.
  </p>
);

function ConfigCard({ config, edits }: { config: Config; edits: Editing }) {
  const { me, communities } = useMe();
  if (edits.editing === config.configId)
    return (
      <li>
        <h3 className="card-title">
          <code>{config.dvcId}</code>
        </h3>
        <ConfigEditForm config={config} onDone={(saved) => edits.edit(undefined, saved)} />
      </li>
    );
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
      {edits.saved === config.configId ? <Saved /> : null}
      {can(me, 'admin') ? (
        <EditButton label={`config ${config.dvcId}`} onClick={() => edits.edit(config.configId)} />
      ) : null}
    </li>
  );
}

export function VerifiersPage() {
  const { me, communities } = useMe();
  const verifiers = useQuery({
    queryKey: ['verifiers'],
    queryFn: () => api<{ items: Verifier[] }>('/verifiers'),
  });
  const configs = useQuery({
    queryKey: ['configs'],
    queryFn: () => api<{ items: Config[] }>('/configs'),
  });
  const reveal = useMutation({
    mutationFn: (id: string) => api<Verifier>(`/verifiers/${id}/reveal`, { method: 'POST' }),
  });
  const error = verifiers.error ?? configs.error ?? reveal.error;
  const edits = useEditing();
  return (
    <section aria-labelledby="verifiers-title">
      <h1 id="verifiers-title">Verifiers and configs</h1>
      <p className="hint">
        {can(me, 'admin')
          ? 'Changing a verifier or a config, or showing its secrets, asks for a sign-in of the last 5 minutes; every change is in the audit log.'
          : 'Admins change verifiers and configs here; every change is in the audit log.'}
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
          if (edits.editing === v.verifierId)
            return (
              <li key={v.verifierId}>
                <h3 className="card-title">
                  {v.name} <code>{v.tag}</code>
                </h3>
                <VerifierEditForm verifier={v} onDone={(saved) => edits.edit(undefined, saved)} />
              </li>
            );
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
              {edits.saved === v.verifierId ? <Saved /> : null}
              {can(me, 'admin') ? (
                <div className="actions">
                  <EditButton
                    label={`verifier ${v.name}`}
                    onClick={() => {
                      // what was revealed is shown no more: the edit may change it
                      reveal.reset();
                      edits.edit(v.verifierId);
                    }}
                  />
                  {!revealed ? (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => reveal.mutate(v.verifierId)}
                    >
                      Reveal secrets<span className="visually-hidden"> of {v.name}</span>
                    </button>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      <h2>Verification configs</h2>
      {configs.data?.items.length === 0 ? <p className="empty">No verification config.</p> : null}
      <ul className="cards grid">
        {(configs.data?.items ?? []).map((c) => (
          <ConfigCard key={c.configId} config={c} edits={edits} />
        ))}
      </ul>
    </section>
  );
}
