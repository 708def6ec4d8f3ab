// An admin's edits of a verifier and of a verification config. The docverify gateway judges them
// (the admin role, a sign-in of the last 5 minutes, the config's schema) and audits each one; the
// console only sends the members the admin changed. A verifier's config is edited as JSON with its
// secrets masked: a mask sent back keeps the stored secret, unless the connector's address changes.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { api } from '../api.ts';

export interface Verifier {
  verifierId: string;
  communityId: string;
  tag: string;
  name: string;
  type: string;
  connectorUrl: string;
  config: unknown;
}

export interface ReviewSettings {
  mode: 'off' | 'on_inconclusive' | 'always';
  fourEyes?: boolean;
  slaMinutes?: number;
}

export interface Config {
  configId: string;
  communityId: string;
  dvcId: string;
  name: string;
  arrays: Record<string, { verifier: string; skip?: boolean }[]>;
  settings: { review?: ReviewSettings } & Record<string, unknown>;
}

/** An edit's form: its name field first, `children`, then saving, the gateway's refusal, or done. */
function EditForm(props: {
  label: string;
  name: string;
  setName: (name: string) => void;
  onSubmit: () => void;
  save: { isPending: boolean; error: Error | null };
  onCancel: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <form
      className="edit"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        value={props.name}
        required
        maxLength={200}
        onChange={(e) => props.setName(e.target.value)}
      />
      {props.children}
      {props.save.error ? (
        <p role="alert" className="error">
          {props.save.error.message}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={props.save.isPending}>
          {props.save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A mutation sending a PATCH to `path`, refreshing `list` when it lands. */
function usePatch(path: string, list: string, onSaved: () => void) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => api(path, { method: 'PATCH', body }),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: [list] });
      onSaved();
    },
  });
}

export function VerifierEditForm(props: { verifier: Verifier; onDone: (saved: boolean) => void }) {
  const { verifier } = props;
  const id = useId();
  const [name, setName] = useState(verifier.name);
  const [connectorUrl, setConnectorUrl] = useState('');
  const [config, setConfig] = useState(JSON.stringify(verifier.config, null, 2));
  const [invalid, setInvalid] = useState('');
  const save = usePatch(`/verifiers/${verifier.verifierId}`, 'verifiers', () => props.onDone(true));
  const submit = () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(config);
    } catch {
      return setInvalid('The config is not valid JSON.');
    }
    setInvalid('');
    const changes: Record<string, unknown> = {};
    if (name !== verifier.name) changes.name = name;
    if (connectorUrl.trim()) changes.connectorUrl = connectorUrl.trim();
    if (JSON.stringify(parsed) !== JSON.stringify(verifier.config) || changes.connectorUrl)
      changes.config = parsed;
    if (Object.keys(changes).length === 0) return props.onDone(false);
    save.mutate(changes);
  };
  return (
    <EditForm
      label={`Edit verifier ${verifier.name}`}
      name={name}
      setName={setName}
      onSubmit={submit}
      save={save}
      onCancel={() => props.onDone(false)}
    >
      <label htmlFor={`${id}-url`}>New connector URL</label>
      <input
        id={`${id}-url`}
        type="url"
        value={connectorUrl}
        placeholder="leave empty to keep the current one"
        aria-describedby={`${id}-url-hint`}
        onChange={(e) => setConnectorUrl(e.target.value)}
      />
      <p className="hint" id={`${id}-url-hint`}>
        A new address needs every secret of the config again: stored secrets never follow it.
      </p>
      <label htmlFor={`${id}-config`}>Config (JSON)</label>
      <textarea
        id={`${id}-config`}
        className="code"
        rows={Math.min(14, config.split('\n').length + 1)}
        spellCheck={false}
        value={config}
        aria-describedby={`${id}-config-hint`}
        onChange={(e) => setConfig(e.target.value)}
      />
      <p className="hint" id={`${id}-config-hint`}>
        ******** keeps the stored secret; type a new value to replace it.
      </p>
      {invalid ? (
        <p role="alert" className="error">
          {invalid}
        </p>
      ) : null}
    </EditForm>
  );
}

const MODES: { value: ReviewSettings['mode']; label: string }[] = [
  { value: 'off', label: 'Off: results are final' },
  { value: 'on_inconclusive', label: 'When a result is inconclusive' },
  { value: 'always', label: 'Always' },
];

export function ConfigEditForm(props: { config: Config; onDone: (saved: boolean) => void }) {
  const { config } = props;
  const id = useId();
  const current: ReviewSettings = config.settings?.review ?? { mode: 'off' };
  const [name, setName] = useState(config.name);
  const [mode, setMode] = useState(current.mode);
  const [fourEyes, setFourEyes] = useState(current.fourEyes ?? false);
  const [sla, setSla] = useState(
    current.slaMinutes === undefined ? '' : String(current.slaMinutes),
  );
  const save = usePatch(`/configs/${config.configId}`, 'configs', () => props.onDone(true));
  const submit = () => {
    const review: ReviewSettings = { mode, fourEyes, ...(sla ? { slaMinutes: Number(sla) } : {}) };
    const changes: Record<string, unknown> = {};
    if (name !== config.name) changes.name = name;
    const same =
      review.mode === current.mode &&
      review.fourEyes === (current.fourEyes ?? false) &&
      review.slaMinutes === current.slaMinutes;
    if (!same) changes.review = review;
    if (Object.keys(changes).length === 0) return props.onDone(false);
    save.mutate(changes);
  };
  return (
    <EditForm
      label={`Edit config ${config.dvcId}`}
      name={name}
      setName={setName}
      onSubmit={submit}
      save={save}
      onCancel={() => props.onDone(false)}
    >
      <label htmlFor={`${id}-mode`}>Human review</label>
      <select
        id={`${id}-mode`}
        value={mode}
        onChange={(e) => setMode(e.target.value as ReviewSettings['mode'])}
      >
        {MODES.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </select>
      <label className="check">
        <input
          type="checkbox"
          checked={fourEyes}
          disabled={mode === 'off'}
          onChange={(e) => setFourEyes(e.target.checked)}
        />
        Four-eyes: a second operator confirms each decision
      </label>
      <label htmlFor={`${id}-sla`}>Time to decide (minutes)</label>
      <input
        id={`${id}-sla`}
        type="number"
        inputMode="numeric"
        min={1}
        max={43200}
        value={sla}
        placeholder="no deadline"
        disabled={mode === 'off'}
        onChange={(e) => setSla(e.target.value)}
      />
    </EditForm>
  );
}
