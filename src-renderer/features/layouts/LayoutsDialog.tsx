// Named layouts (issue 34 item 8): save the panel arrangement under a name, switch to a saved one,
// delete one. Reached from the top bar's Layouts button, the palette ("Save layout as…",
// "Layouts: switch…"), their keys and the app menu. Main keeps the list per profile. Nothing here
// trades; deleting asks first (Keep focused), and reset to the default goes through its own question.
import { useEffect, useRef, useState } from 'react';
import { useCommand } from '../../lib/commands';
import { errorText } from '../../lib/errors';
import { fmtTime } from '../../lib/format';
import { notify } from '../../stores/notices';
import { layoutNameProblem } from '../../../src-shared/ipc/layout-name';
import { useNamedLayouts, type NamedLayoutEntry } from '../../stores/named-layouts';
import { useSession } from '../../stores/session';
import { useOverlay } from '../../stores/ui';
import { Modal } from '../../ui/Modal';

export interface LayoutsDialogProps {
  /** the current arrangement, as it is saved */
  snapshot: () => unknown;
  /** puts a saved arrangement on screen; false when it cannot be read (the screen is left as it was or the default) */
  apply: (layout: unknown) => boolean;
  /** the reset to the default layout (asks its own question) */
  reset: () => Promise<void>;
}

export function LayoutsDialog({ snapshot, apply, reset }: LayoutsDialogProps) {
  const open = useOverlay((s) => s.open === 'layouts');
  const show = useOverlay((s) => s.show);
  const profileId = useSession((s) => s.app?.activeProfileId ?? null);
  const store = useNamedLayouts();
  const [error, setError] = useState<string | null>(null);

  useCommand('layout.saveAs', () => show('layouts'));
  useCommand('layout.manage', () => show('layouts'));
  // the list as main has it, read when the dialog opens (and for a new profile while it is open)
  useEffect(() => {
    if (!open) return;
    setError(null);
    void useNamedLayouts.getState().refresh(profileId);
  }, [open, profileId]);

  const close = () => show(null);
  const switchTo = async (entry: NamedLayoutEntry) => {
    if (!profileId) return;
    try {
      const layout = await store.read(profileId, entry.name);
      if (!apply(layout)) return setError(`Layout "${entry.name}" could not be read by this version; the screen is unchanged.`);
      close();
      notify('success', `Layout "${entry.name}"`, 'Panels restored as saved.');
    } catch (err) {
      setError(errorText(err));
    }
  };
  const remove = async (entry: NamedLayoutEntry) => {
    if (!profileId) return;
    try {
      await store.remove(profileId, entry.name);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <Modal open={open} onClose={close} title="Layouts" className="layouts-dialog">
      {!profileId ? (
        <p className="u-m-0 dim">Layouts are kept per profile: choose a profile first.</p>
      ) : (
        <div className="col">
          <SaveAsForm profileId={profileId} layouts={store.layouts} snapshot={snapshot} error={error} setError={setError} />
          <SavedList layouts={store.layouts} loadError={store.loadError} current={store.current} onSwitch={(l) => void switchTo(l)} onDelete={(l) => void remove(l)} onRetry={() => void store.refresh(profileId)} />
        </div>
      )}
      <div className="row layouts-foot">
        <span className="grow dim">Panels you move are saved for this profile as you go; a named layout is one to come back to.</span>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => {
            close();
            // after this dialog has closed: the question is the only one open
            setTimeout(() => void reset(), 0);
          }}
        >
          Reset to default…
        </button>
      </div>
    </Modal>
  );
}

/** The name field and Save (Replace when the name is taken): a bad name is said as it is typed and never sent. */
function SaveAsForm({ profileId, layouts, snapshot, error, setError }: { profileId: string; layouts: NamedLayoutEntry[] | null; snapshot: () => unknown; error: string | null; setError: (e: string | null) => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const problem = name ? layoutNameProblem(name) : null;
  const exists = !problem && (layouts ?? []).some((l) => l.name === name.trim());
  const save = async () => {
    if (busy) return;
    const local = layoutNameProblem(name);
    if (local) return setError(local);
    setBusy(true);
    try {
      await useNamedLayouts.getState().saveAs(profileId, name, snapshot());
      notify('success', `Layout "${name.trim()}" saved`, 'Layouts (top bar) switches back to it.');
      setName('');
      setError(null);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <form
        className="row layouts-save"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="grow col">
          <span className="dim">Save the current layout as</span>
          <input type="text" data-autofocus aria-label="Layout name" placeholder="e.g. scalp" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={problem !== null} />
        </label>
        <button type="submit" className="btn btn-primary u-as-end" disabled={!name.trim() || problem !== null || busy}>
          {exists ? 'Replace' : 'Save'}
        </button>
      </form>
      {(problem ?? error) ? (
        <div className="conflict" role="alert">
          {problem ?? error}
        </div>
      ) : null}
    </>
  );
}

function SavedList({
  layouts,
  loadError,
  current,
  onSwitch,
  onDelete,
  onRetry,
}: {
  layouts: NamedLayoutEntry[] | null;
  loadError: unknown;
  current: string | null;
  onSwitch: (l: NamedLayoutEntry) => void;
  onDelete: (l: NamedLayoutEntry) => void;
  onRetry: () => void;
}) {
  const [asking, setAsking] = useState<string | null>(null);
  if (loadError) {
    return (
      <div className="conflict" role="alert">
        Could not read the saved layouts: {errorText(loadError)}{' '}
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  if (layouts === null) return <p className="dim u-m-0">Reading the saved layouts…</p>;
  if (layouts.length === 0) return <p className="dim u-m-0" data-testid="layouts-empty">No saved layouts yet. Name the current one above to keep it.</p>;
  return (
    <ul className="layouts-list" aria-label="Saved layouts">
      {layouts.map((l) => (
        <li key={l.name} className="row" data-layout={l.name}>
          <span className="grow layouts-name" title={l.name}>
            {l.name}
            {current === l.name ? <span className="badge">current</span> : null}
          </span>
          <span className="dim mono">{fmtTime(l.savedAt)}</span>
          {asking === l.name ? (
            <DeleteAsk
              name={l.name}
              keep={() => setAsking(null)}
              remove={() => {
                setAsking(null);
                onDelete(l);
              }}
            />
          ) : (
            <>
              <button type="button" className="btn btn-sm btn-primary" onClick={() => onSwitch(l)} aria-label={`Switch to layout ${l.name}`}>
                Switch
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setAsking(l.name)} aria-label={`Delete layout ${l.name}`}>
                Delete…
              </button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The question before a saved layout is deleted: Keep has focus (Enter keeps). */
function DeleteAsk({ name, keep, remove }: { name: string; keep: () => void; remove: () => void }) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <>
      <span>Delete "{name}"?</span>
      <button ref={keepRef} type="button" className="btn btn-sm" onClick={keep}>
        Keep
      </button>
      <button type="button" className="btn btn-sm btn-danger" onClick={remove}>
        Delete
      </button>
    </>
  );
}
