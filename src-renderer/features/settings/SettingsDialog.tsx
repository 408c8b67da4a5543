// Settings: theme, text size, size presets, confirmations, fill notices, and the key map: rebind any action
// by pressing the new keys, see and resolve conflicts, reset to the defaults. Saved through
// api.saveSettings (only the bindings that differ from the defaults are stored).
import { useEffect, useState } from 'react';
import type { Settings } from '../../../src-shared/ipc/contract';
import { checkCountText, wireCount } from '../../lib/order-check';
import { ACTION_BY_ID, ACTIONS, comboFromEvent, findConflicts, formatCombo, isMacPlatform, keymapOverrides, rebind, resolveKeymap, type Keymap } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { useOverlay } from '../../stores/ui';
import { notify } from '../../stores/notices';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { InlineError } from '../../ui/States';
import { DEFAULT_FONT_PX, FONT_LABELS, FONT_SIZES, type FontPx } from '../../lib/ui-scale';

function KeymapEditor({ map, setMap }: { map: Keymap; setMap: (m: Keymap) => void }) {
  const [recording, setRecording] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const mac = isMacPlatform();
  const conflicts = findConflicts(map);
  const conflictOf = (id: string) => {
    const combo = map[id];
    const ids = combo ? conflicts.get(combo) : undefined;
    return ids ? ids.filter((x) => x !== id) : [];
  };
  useEffect(() => {
    if (!recording) return undefined;
    const onKey = (e: KeyboardEvent) => {
      e.preventDefault();
      e.stopPropagation();
      if (e.key === 'Escape' && !e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey) {
        setRecording(null);
        setNote('');
        return;
      }
      const combo = comboFromEvent(e, mac);
      if (!combo) return;
      const { map: next, displaced } = rebind(map, recording, combo);
      setMap(next);
      setNote(displaced.length ? `${formatCombo(combo, mac)} was taken from: ${displaced.map((d) => ACTION_BY_ID.get(d)?.label ?? d).join(', ')} (now unbound).` : '');
      setRecording(null);
    };
    // capture: before the dialog or the hotkeys see it
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [recording, map, setMap, mac]);
  return (
    <div className="col">
      <div className="row">
        <span className="dim grow">Choose Change, then press the new keys (Esc cancels). Tab order reaches every row.</span>
        <button type="button" className="btn btn-sm" onClick={() => setMap(resolveKeymap())}>
          Reset all to defaults
        </button>
      </div>
      {note && (
        <div className="conflict" role="status">
          {note}
        </div>
      )}
      {conflicts.size > 0 && (
        <div className="conflict" role="alert">
          {conflicts.size} key{conflicts.size === 1 ? ' is' : 's are'} bound twice; only the first action runs.
        </div>
      )}
      <div className="u-maxh-42vh-ov-auto-b-1px-solid-var-border">
        <table className="grid keymap-table">
          <tbody>
            {ACTIONS.map((a) => {
              const others = conflictOf(a.id);
              return (
                <tr key={a.id}>
                  <td>
                    {a.label} <span className="faint">{a.group}</span>
                    {others.length > 0 && <div className="conflict">also bound to {others.map((o) => ACTION_BY_ID.get(o)?.label).join(', ')}</div>}
                  </td>
                  <td className="u-w-120">{recording === a.id ? <span className="badge badge-warn">press keys…</span> : map[a.id] ? <span className="kbd">{formatCombo(map[a.id]!, mac)}</span> : <span className="faint">unbound</span>}</td>
                  <td className="actions u-w-190">
                    <button type="button" className="btn btn-sm" onClick={() => setRecording(recording === a.id ? null : a.id)} aria-label={`Change the key of ${a.label}`}>
                      {recording === a.id ? 'Cancel' : 'Change'}
                    </button>
                    <button type="button" className="btn btn-sm" onClick={() => setMap({ ...map, [a.id]: '' })} disabled={!map[a.id]} aria-label={`Unbind ${a.label}`}>
                      Unbind
                    </button>
                    <button type="button" className="btn btn-sm" onClick={() => setMap({ ...map, [a.id]: a.defaultKeys })} disabled={map[a.id] === a.defaultKeys} aria-label={`Restore the default key of ${a.label}`}>
                      Default
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Text size: 12 (default), 13, 14 or 16 px (lib/ui-scale applies it). */
function TextSizeField({ value, onChange }: { value: FontPx | undefined; onChange: (px: FontPx) => void }) {
  return (
    <Field label="Text size (every panel; the ladder's rows follow)">
      <select value={value ?? DEFAULT_FONT_PX} onChange={(e) => onChange(Number(e.target.value) as FontPx)}>
        {FONT_SIZES.map((px) => (
          <option key={px} value={px}>
            {FONT_LABELS[px]}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function SettingsDialog() {
  const open = useOverlay((s) => s.open === 'settings');
  const show = useOverlay((s) => s.show);
  const settings = useSession((s) => s.settings);
  const saveSettings = useSession((s) => s.saveSettings);
  const [draft, setDraft] = useState<Settings>(settings);
  const [map, setMap] = useState<Keymap>(() => resolveKeymap(settings.keymap));
  const [presets, setPresets] = useState<string[]>(settings.sizePresets);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Opened, or the settings changed while open: the form starts again from them in this render,
  // before anything is committed (an effect did it a render later, so the dialog opened for a
  // frame on the draft of its last opening: a theme or text size changed since, by key or menu,
  // showed the old value, and Save in that frame wrote it back).
  const [startedFrom, setStartedFrom] = useState<Settings | null>(null);
  const from = open ? settings : null;
  if (startedFrom !== from) {
    setStartedFrom(from);
    if (from) {
      setDraft(from);
      setMap(resolveKeymap(from.keymap));
      setPresets(from.sizePresets);
      setError(null);
    }
  }
  const presetChecks = presets.map((p) => checkCountText(p));
  const valid = presetChecks.every((c) => c.ok) && presets.length >= 1;
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await saveSettings({ ...draft, keymap: keymapOverrides(map), sizePresets: presetChecks.map((c) => trimCount(wireCount(c.value!))) });
      notify('success', 'Settings saved');
      show(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      onClose={() => show(null)}
      title="Settings"
      footer={
        <>
          <InlineError error={error} />
          <button type="button" className="btn" onClick={() => show(null)}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={!valid || busy} onClick={() => void save()}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </>
      }
    >
      <div className="col">
        <div className="form-grid">
          <Field label="Theme">
            <select value={draft.theme} onChange={(e) => setDraft({ ...draft, theme: e.target.value as Settings['theme'] })}>
              <option value="dark">Dark</option>
              <option value="light">Light</option>
            </select>
          </Field>
          <TextSizeField value={draft.fontPx} onChange={(fontPx) => setDraft({ ...draft, fontPx })} />
          <label className="check u-as-end-h-22">
            <input type="checkbox" checked={draft.confirmCancelAll} onChange={(e) => setDraft({ ...draft, confirmCancelAll: e.target.checked })} />
            Confirm cancel-all
          </label>
          <label className="check u-as-end-h-22">
            <input type="checkbox" checked={draft.notifyOnFill} onChange={(e) => setDraft({ ...draft, notifyOnFill: e.target.checked })} />
            Notify on fills
          </label>
          <Field label="Heatmap history (minutes a market, 1-60)">
            <input
              className="num u-w-70"
              type="number"
              min={1}
              max={60}
              step={1}
              value={draft.heatmapMinutes ?? 10}
              onChange={(e) => {
                const n = Math.round(Number(e.target.value));
                if (Number.isFinite(n)) setDraft({ ...draft, heatmapMinutes: Math.max(1, Math.min(60, n)) });
              }}
            />
          </Field>
        </div>
        <div>
          <div className="dim u-fs-11-mb-2">
            Size presets (keys 1 to 5)
          </div>
          <div className="row">
            {presets.map((p, i) => (
              <Field key={i} label={`Preset ${i + 1}`} error={p && !presetChecks[i]?.ok ? presetChecks[i]?.message : undefined}>
                <input className="num u-w-70" value={p} onChange={(e) => setPresets(presets.map((x, j) => (j === i ? e.target.value : x)))} aria-invalid={!presetChecks[i]?.ok} />
              </Field>
            ))}
            {presets.length < 9 && (
              <button type="button" className="btn btn-sm u-as-end" onClick={() => setPresets([...presets, '1'])} >
                Add
              </button>
            )}
            {presets.length > 1 && (
              <button type="button" className="btn btn-sm u-as-end" onClick={() => setPresets(presets.slice(0, -1))} >
                Remove last
              </button>
            )}
          </div>
        </div>
        <div>
          <div className="dim u-fs-11-mb-2">
            Key map
          </div>
          <KeymapEditor map={map} setMap={setMap} />
        </div>
      </div>
    </Modal>
  );
}

/** "10.00" -> "10": presets read better without trailing zeros, and stay valid counts. */
function trimCount(s: string): string {
  return s.replace(/\.00$/, '').replace(/(\.\d)0$/, '$1');
}
