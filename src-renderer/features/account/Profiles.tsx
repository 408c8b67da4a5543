// Profiles (embedded, demo, production, custom) and their API keys. Keys are imported (id plus a
// PEM file), generated, rotated, deleted or made active through main; a private key never comes
// back to this page, and the imported PEM text is dropped as soon as main has it.
import { useRef, useState } from 'react';
import type { AppState, KeyView, ProfileKind, ProfileView } from '../../../src-shared/ipc/contract';
import { useAction } from '../../hooks/useAction';
import { withConsoleCode } from '../../services/console-code';
import { getTerminalApi } from '../../lib/bridge';
import { errorText } from '../../lib/errors';
import { fmtDateTime } from '../../lib/format';
import { notify } from '../../stores/notices';
import { useSession } from '../../stores/session';
import { chooseAction, confirmAction } from '../../ui/confirm';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { InlineError } from '../../ui/States';

const PEM_RE = /-----BEGIN (?:RSA )?PRIVATE KEY-----[\s\S]+-----END (?:RSA )?PRIVATE KEY-----/;
const HEADER_RE = /^[A-Z0-9]{1,20}-$/;

async function act(title: string, fn: () => Promise<unknown>, ok: string): Promise<boolean> {
  try {
    await fn();
    notify('success', ok);
    await useSession.getState().reload();
    return true;
  } catch (err) {
    notify('error', title, errorText(err));
    return false;
  }
}

function ProfileDialog({ profile, onClose }: { profile: ProfileView | null; onClose: () => void }) {
  const [name, setName] = useState(profile?.name ?? '');
  const [kind, setKind] = useState<ProfileKind>(profile?.kind ?? 'custom');
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? '');
  const [wsUrl, setWsUrl] = useState(profile?.wsUrl ?? '');
  const [headerPrefix, setHeaderPrefix] = useState(profile?.headerPrefix ?? '');
  const { busy, error, run } = useAction();
  const urlOk = (u: string) => {
    try {
      return !!new URL(u);
    } catch {
      return false;
    }
  };
  const errors = {
    name: name.trim() ? undefined : 'Name the profile',
    baseUrl: baseUrl && !urlOk(baseUrl) ? 'A URL like https://host/trade-api/v2' : kind === 'custom' && !baseUrl ? 'A custom profile needs a base URL' : undefined,
    wsUrl: wsUrl && !/^wss?:\/\//.test(wsUrl) ? 'Must start with ws:// or wss://' : kind === 'custom' && !wsUrl ? 'A custom profile needs a WebSocket URL' : undefined,
    headerPrefix: headerPrefix && !HEADER_RE.test(headerPrefix) ? 'Capitals and digits ending in a dash, like KALSHI-' : undefined,
  };
  const valid = !Object.values(errors).some(Boolean);
  const save = () =>
    run(async () => {
      await getTerminalApi().saveProfile({
        ...(profile ? { id: profile.id } : {}),
        name: name.trim(),
        kind,
        ...(baseUrl ? { baseUrl } : {}),
        ...(wsUrl ? { wsUrl } : {}),
        ...(headerPrefix ? { headerPrefix } : {}),
      });
      await useSession.getState().reload();
      notify('success', `Saved profile ${name.trim()}`);
      onClose();
    });
  return (
    <Modal
      open
      onClose={onClose}
      title={profile ? `Edit ${profile.name}` : 'New profile'}
      narrow
      footer={
        <button type="button" className="btn btn-primary" disabled={!valid || busy} onClick={() => void save()}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
      }
    >
      <form
        className="col"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void save();
        }}
      >
        <Field label="Name" error={name ? errors.name : undefined}>
          <input autoFocus value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
        </Field>
        <Field label="Kind" hint={kind === 'embedded' ? 'The local exchange that ships with the terminal (paper money).' : kind === 'custom' ? 'Any exchange speaking this API.' : undefined}>
          <select value={kind} onChange={(e) => setKind(e.target.value as ProfileKind)}>
            <option value="embedded">Embedded (local, paper money)</option>
            <option value="demo">Demo</option>
            <option value="production">Production</option>
            <option value="custom">Custom</option>
          </select>
        </Field>
        <Field label="REST base URL" error={errors.baseUrl} hint={kind !== 'custom' ? 'Leave blank for the default of this kind.' : undefined}>
          <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://host/trade-api/v2" />
        </Field>
        <Field label="WebSocket URL" error={errors.wsUrl}>
          <input value={wsUrl} onChange={(e) => setWsUrl(e.target.value)} placeholder="wss://host/trade-api/ws/v2" />
        </Field>
        <Field label="Signature header prefix" error={errors.headerPrefix} hint="SVC- for this exchange, KALSHI- for the real one.">
          <input value={headerPrefix} onChange={(e) => setHeaderPrefix(e.target.value.toUpperCase())} placeholder="SVC-" />
        </Field>
        <InlineError error={error} />
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

function ImportKey({ profile }: { profile: ProfileView }) {
  const [keyId, setKeyId] = useState('');
  const [name, setName] = useState('');
  const [fileName, setFileName] = useState('');
  const [pemOk, setPemOk] = useState<boolean | null>(null);
  const pem = useRef<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();
  const reset = () => {
    pem.current = null;
    setFileName('');
    setPemOk(null);
    setKeyId('');
    setName('');
    if (fileInput.current) fileInput.current.value = '';
  };
  const onFile = async (f: File | undefined) => {
    pem.current = null;
    setPemOk(null);
    setFileName(f?.name ?? '');
    if (!f) return;
    if (f.size > 20_000) {
      setPemOk(false);
      return;
    }
    const text = await f.text();
    const ok = PEM_RE.test(text);
    pem.current = ok ? text : null;
    setPemOk(ok);
  };
  const submit = async () => {
    if (!pem.current || !keyId.trim()) return;
    const privateKeyPem = pem.current;
    // the PEM text is dropped after the attempt, whatever happened
    await run(async () => {
      await getTerminalApi().importKey({ profileId: profile.id, apiKeyId: keyId.trim(), ...(name.trim() ? { name: name.trim() } : {}), privateKeyPem });
      notify('success', `Imported key ${keyId.trim()}`, 'The private key is now held by the terminal and is not shown again.');
      reset();
      await useSession.getState().reload();
    }, () => {
      pem.current = null;
    });
  };
  return (
    <form
      className="form-grid"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Field label="API key id">
        <input value={keyId} onChange={(e) => setKeyId(e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Name (optional)">
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
      </Field>
      <Field label="Private key (PEM file)" error={pemOk === false ? 'Not a PEM private key file' : undefined} hint={pemOk ? `${fileName} read` : undefined}>
        <input ref={fileInput} type="file" accept=".pem,.key,.txt,application/x-pem-file" onChange={(e) => void onFile(e.target.files?.[0])} />
      </Field>
      <button type="submit" className="btn btn-primary" disabled={!keyId.trim() || !pemOk || busy}>
        {busy ? 'Importing…' : 'Import key'}
      </button>
      <div className="u-gc-1-1">
        <InlineError error={error} />
      </div>
    </form>
  );
}

function GenerateKey({ profile }: { profile: ProfileView }) {
  const [name, setName] = useState('');
  const [write, setWrite] = useState(true);
  const [subaccount, setSubaccount] = useState('');
  const { busy, error, run } = useAction();
  const sub = subaccount.trim() === '' ? undefined : /^\d+$/.test(subaccount) && Number(subaccount) <= 63 ? Number(subaccount) : NaN;
  const submit = () => {
    const sent = name;
    return run(async () => {
      const k = await getTerminalApi().generateKey({ profileId: profile.id, name: sent.trim(), scopes: write ? ['read', 'write'] : ['read'], ...(sub !== undefined ? { subaccount: sub } : {}) });
      notify('success', `Generated key ${k.apiKeyId}`, 'The terminal keeps the private key; it is never displayed.');
      // cleared only if it still holds what was sent (as the Alerts form)
      setName((n) => (n === sent ? '' : n));
      await useSession.getState().reload();
    });
  };
  return (
    <form
      className="form-grid"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim() && !Number.isNaN(sub)) void submit();
      }}
    >
      <Field label="Key name">
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
      </Field>
      <Field label="Subaccount (optional)" error={Number.isNaN(sub) ? '0 to 63' : undefined}>
        <input className="num" value={subaccount} onChange={(e) => setSubaccount(e.target.value)} />
      </Field>
      <label className="check u-as-end-h-22">
        <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} />
        Can trade (write scope)
      </label>
      <button type="submit" className="btn btn-primary" disabled={!name.trim() || Number.isNaN(sub) || busy}>
        {busy ? 'Generating…' : 'Generate key'}
      </button>
      <div className="u-gc-1-1">
        <InlineError error={error} />
      </div>
    </form>
  );
}

function KeyRow({ profile, k }: { profile: ProfileView; k: KeyView }) {
  const api = getTerminalApi();
  const ref = { profileId: profile.id, apiKeyId: k.apiKeyId };
  const [checking, setChecking] = useState(false);
  // Forgetting a key that still trades at the exchange leaves any copy of it usable: main asks the
  // exchange (signed by that key, sent to its own profile's host) and the trader chooses.
  const deleteKey = async () => {
    setChecking(true);
    let status;
    try {
      status = await api.keyStatus(ref);
    } catch (err) {
      notify('error', 'Could not check the key', errorText(err));
      return;
    } finally {
      setChecking(false);
    }
    if (status.validAtExchange) {
      const choice = await chooseAction({
        title: 'Key still valid at the exchange',
        body: `${k.apiKeyId} still signs at the exchange. Forgetting it here does not stop a copy of its private key from trading. Revoke it at the exchange as well?`,
        choices: [
          { label: 'Forget here only', value: 'forget' },
          { label: 'Revoke and delete', value: 'revoke', danger: true },
        ],
      });
      if (choice === null) return;
      const revoke = choice === 'revoke';
      await act('Could not delete the key', () => api.deleteKey({ ...ref, revoke }), revoke ? `Revoked ${k.apiKeyId} at the exchange and deleted it here` : `Deleted ${k.apiKeyId} here; it is still valid at the exchange`);
      return;
    }
    const known = status.validAtExchange === false ? 'The exchange no longer accepts it.' : `The exchange could not be asked whether it is still valid (${status.detail}).`;
    const ok = await confirmAction({ title: 'Delete this key?', body: `Forget ${k.apiKeyId} and its private key in this terminal. ${known}`, confirmLabel: 'Delete', danger: true });
    if (ok) await act('Could not delete the key', () => api.deleteKey({ ...ref, revoke: false }), `Deleted ${k.apiKeyId}`);
  };
  return (
    <tr>
      <td className="mono wrap">{k.apiKeyId}</td>
      <td title={k.name}>{k.name}</td>
      <td>{k.source}</td>
      <td className="wrap">{fmtDateTime(k.createdAt)}</td>
      <td>{k.active ? <span className="badge badge-ok">in use</span> : ''}</td>
      <td className="actions">
        {!k.active && (
          <button type="button" className="btn btn-sm" onClick={() => void act('Could not switch keys', () => withConsoleCode((code) => api.useKey({ ...ref, ...(code ? { consoleCode: code } : {}) })), `Now signing with ${k.apiKeyId}`)}>
            Use
          </button>
        )}
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            void confirmAction({ title: 'Rotate this key?', body: `Mint a new key to replace ${k.apiKeyId} and revoke the old one.`, confirmLabel: 'Rotate' }).then(
              (ok) => ok && act('Could not rotate the key', () => api.rotateKey(ref), `Rotated ${k.apiKeyId}`),
            )
          }
        >
          Rotate
        </button>
        <button type="button" className="btn btn-sm btn-danger" disabled={checking} aria-busy={checking} onClick={() => void deleteKey()}>
          {checking ? 'Checking…' : 'Delete'}
        </button>
      </td>
    </tr>
  );
}

function ProfileRow({ p, selected, onPick, onEdit }: { p: ProfileView; selected: boolean; onPick: () => void; onEdit: () => void }) {
  const api = getTerminalApi();
  return (
    <tr aria-selected={selected} className="clickable" onClick={onPick}>
      <td className="wrap">
        {p.name} {p.active && <span className="badge badge-ok">active</span>}
      </td>
      <td>{p.kind}</td>
      <td className="mono" title={`${p.baseUrl} (WebSocket ${p.wsUrl})`}>
        {p.baseUrl}
      </td>
      <td className="mono">{p.headerPrefix}</td>
      <td className="num">{p.keys.length}</td>
      <td className="actions">
        <button type="button" className="btn btn-sm" onClick={onPick}>
          Keys
        </button>
        {!p.active && (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={() =>
              void api
                .activateProfile(p.id)
                .then((state) => {
                  useSession.getState().setApp(state);
                  notify('success', `Switched to ${p.name}`);
                })
                .catch((err: unknown) => notify('error', `Could not switch to ${p.name}`, errorText(err)))
            }
          >
            Activate
          </button>
        )}
        <button type="button" className="btn btn-sm" onClick={onEdit}>
          Edit
        </button>
        {!p.active && (
          <button
            type="button"
            className="btn btn-sm btn-danger"
            onClick={() =>
              void confirmAction({ title: 'Delete this profile?', body: `Delete ${p.name} and the keys stored with it.`, confirmLabel: 'Delete', danger: true }).then(
                (ok) => ok && act('Could not delete the profile', () => api.deleteProfile(p.id), `Deleted ${p.name}`),
              )
            }
          >
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}

/** The chosen profile's keys, and the forms that import or generate one. */
function ProfileKeys({ profile, atRest }: { profile: ProfileView; atRest: AppState['keysAtRest'] }) {
  return (
    <>
      <section className="section">
        <h3>Keys of {profile.name}</h3>
        {atRest && (
          <div className="dim u-mb-4" data-testid="keys-at-rest">
            Private keys are sealed on this machine with {atRest.kind} and never leave the main process.
          </div>
        )}
        {profile.keys.length === 0 ? (
          <div className="dim">No keys: this profile can read public data only. Import or generate one below.</div>
        ) : (
          // fits the panel (issue 34): the key id and the date wrap in their cells, the row buttons wrap
          <table className="grid account-grid">
            <thead>
              <tr>
                <th>Key id</th>
                <th className="u-w-120">Name</th>
                <th className="u-w-70">Source</th>
                <th className="u-w-96">Created</th>
                <th className="u-w-60" />
                <th className="u-w-110" />
              </tr>
            </thead>
            <tbody>
              {profile.keys.map((k) => (
                <KeyRow key={k.apiKeyId} profile={profile} k={k} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="section">
        <h3>Import a key</h3>
        <ImportKey profile={profile} />
      </section>
      <section className="section">
        <h3>Generate a key</h3>
        <GenerateKey profile={profile} />
      </section>
    </>
  );
}

export function Profiles() {
  const app = useSession((s) => s.app);
  const [editing, setEditing] = useState<ProfileView | 'new' | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  if (!app) return <div className="state">Loading profiles…</div>;
  const profile = app.profiles.find((p) => p.id === (picked ?? app.activeProfileId)) ?? app.profiles[0] ?? null;
  const atRest = app.keysAtRest;
  return (
    <div className="panel-body">
      {atRest?.warning && (
        <div className="banner banner-warn u-mb-4" role="alert" data-testid="keys-at-rest-warning">
          <span className="badge badge-warn">keys at rest</span>
          <span>{atRest.warning}</span>
        </div>
      )}
      <section className="section">
        <div className="row u-mb-4">
          <h3 className="grow u-m-0">
            Profiles
          </h3>
          <button type="button" className="btn btn-sm" onClick={() => setEditing('new')}>
            New profile
          </button>
        </div>
        <table className="grid account-grid">
          <thead>
            <tr>
              <th>Name</th>
              <th className="u-w-70">Kind</th>
              <th>Base URL</th>
              <th className="u-w-60">Prefix</th>
              <th className="u-w-60">Keys</th>
              <th className="u-w-130" />
            </tr>
          </thead>
          <tbody>
            {app.profiles.map((p) => (
              <ProfileRow key={p.id} p={p} selected={p.id === profile?.id} onPick={() => setPicked(p.id)} onEdit={() => setEditing(p)} />
            ))}
          </tbody>
        </table>
        {app.profiles.length === 0 && <div className="state">No profiles yet. Create one to connect to an exchange.</div>}
      </section>
      {profile && <ProfileKeys profile={profile} atRest={atRest} />}
      {editing && <ProfileDialog profile={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
