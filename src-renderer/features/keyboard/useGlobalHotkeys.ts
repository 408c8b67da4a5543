// One place that listens for every binding of the key map (react-hotkeys-hook) and runs the
// bound command. Most keys stay quiet while typing in a field or while a dialog is open; the
// few marked global (palette, settings, submit) work everywhere. In the ladder's rows bare digits
// are the ladder's typed size, not the size presets.
import { useMemo } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { runCommand } from '../../lib/commands';
import { ACTION_BY_ID, bindingIndex, normalizeCombo } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { isModalOpen } from '../../ui/Modal';

export function useGlobalHotkeys(): void {
  const keymap = useSession((s) => s.keymap);
  const index = useMemo(() => bindingIndex(keymap), [keymap]);
  const [globalKeys, localKeys] = useMemo(() => {
    const g: string[] = [];
    const l: string[] = [];
    for (const [combo, id] of index) (ACTION_BY_ID.get(id)?.global ? g : l).push(combo);
    return [g.join(','), l.join(',')];
  }, [index]);

  const dispatch = (e: KeyboardEvent, hotkey: string, global: boolean) => {
    const combo = normalizeCombo(hotkey);
    const id = combo ? index.get(combo) : undefined;
    if (!id) return;
    if (!global && isModalOpen()) return;
    // in the ladder's rows a bare digit is the typed size (digits, then Enter), never a size preset
    if (!global && /^\d$/.test(combo ?? '') && (e.target as Element | null)?.closest?.('[data-typed-size]')) return;
    if (e.repeat && !id.startsWith('ticket.price')) return;
    e.preventDefault();
    runCommand(id, 'key');
  };

  useHotkeys(globalKeys || 'f24', (e, h) => dispatch(e, h.hotkey, true), { enableOnFormTags: true, enabled: !!globalKeys }, [index]);
  useHotkeys(localKeys || 'f24', (e, h) => dispatch(e, h.hotkey, false), { enabled: !!localKeys }, [index]);
}
