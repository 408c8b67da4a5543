// Ctrl/Cmd+K: every action by name with its key, plus markets to jump to. Ranked by cmdk's match
// score. The palette never trades by default (palette-rank): it opens with nothing selected, its
// own pick after a search is never an action that sends, cancels or amends, such an action cannot
// be chosen until something is typed, and Enter runs one only when the trader moved onto it with
// the arrow keys (or clicks it). Enter is the palette's, not cmdk's: it runs what this component
// shows as selected, so cmdk's own first-item pick can never slip through.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Command, defaultFilter } from 'cmdk';
import { runCommand, hasCommand } from '../../lib/commands';
import { ACTIONS, formatCombo, isMacPlatform, type ActionGroup, type Keymap } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import { useOverlay } from '../../stores/ui';
import { Modal } from '../../ui/Modal';
import { actionValue, enterMayRun, isDangerValue, preselect, rankItem } from './palette-rank';

const filter = rankItem(defaultFilter ?? (() => 1));

const GROUPS: ActionGroup[] = ['Trading', 'Ticket', 'Ladder', 'Panels', 'App'];

/** Keys that move cmdk's selection (its vim-style Ctrl+N/P/J/K included). */
const isMoveKey = (e: { key: string; ctrlKey: boolean }) => ['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key) || (e.ctrlKey && ['n', 'p', 'j', 'k'].includes(e.key));

/**
 * The items are built when the palette opens and when a search starts or ends, not on every
 * keystroke: cmdk's items filter and rank themselves from its own store, so the same elements
 * are handed back and React skips them (some 100 items a keystroke before). Whether an item is
 * enabled (its command registered, a trading one only once something is typed) is read then.
 */
function buildItems(typed: boolean, keymap: Keymap, mac: boolean, watchlist: readonly string[], select: (t: string) => void, show: (o: null) => void) {
  const byValue = new Map<string, () => void>();
  const run = (id: string) => {
    show(null);
    // after the dialog has closed and given focus back
    setTimeout(() => runCommand(id, 'palette'), 0);
  };
  const actionItems = (g: ActionGroup | null) =>
    ACTIONS.filter((a) => (g === null || a.group === g) && a.id !== 'app.palette').map((a) => {
      const v = actionValue(a.id, a.label);
      const enabled = hasCommand(a.id) && (typed || !a.danger);
      if (enabled) byValue.set(v, () => run(a.id));
      return (
        <Command.Item key={a.id} value={v} onSelect={() => run(a.id)} disabled={!enabled} title={a.danger && !typed ? 'Type its name to choose it' : undefined}>
          <span>{a.label}</span>
          {keymap[a.id] ? <span className="kbd">{formatCombo(keymap[a.id]!, mac)}</span> : null}
        </Command.Item>
      );
    });
  const marketItems = watchlist.map((t) => {
    const v = `open market ${t}`;
    const go = () => {
      select(t);
      run('panel.ladder');
    };
    byValue.set(v, go);
    return (
      <Command.Item key={`market ${t}`} value={v} onSelect={go}>
        <span>
          Open <span className="mono">{t}</span>
        </span>
      </Command.Item>
    );
  });
  // while searching, one list ranked by match (cmdk does not reorder groups); by group otherwise
  const list = typed ? (
    [...actionItems(null), ...marketItems]
  ) : (
    <>
      {GROUPS.map((g) => (
        <Command.Group key={g} heading={g === 'Trading' ? 'Trading (type a name to choose one)' : g}>
          {actionItems(g)}
        </Command.Group>
      ))}
      {marketItems.length > 0 && <Command.Group heading="Watchlist">{marketItems}</Command.Group>}
    </>
  );
  return { byValue, list };
}

export function CommandPalette() {
  const open = useOverlay((s) => s.open === 'palette');
  const show = useOverlay((s) => s.show);
  const keymap = useSession((s) => s.keymap);
  const watchlist = useTrading((s) => s.watchlist);
  const select = useTrading((s) => s.selectMarket);
  const mac = isMacPlatform();
  const [search, setSearch] = useState('');
  const searchRef = useRef('');
  searchRef.current = search;
  // a value no item has, new each time (so cmdk, which keeps its own copy, takes it): nothing selected
  const nonce = useRef(0);
  const none = useCallback(() => `\u2063none ${++nonce.current}`, []);
  const [value, setValue] = useState(none);
  const valueRef = useRef(value);
  valueRef.current = value;
  // what is steering the selection during this event: the trader's keys or pointer, else cmdk itself
  const steering = useRef<'keys' | 'pointer' | null>(null);
  // the item the trader moved onto with the keys (a dangerous one runs on Enter only then)
  const chosen = useRef<string | null>(null);
  // the trader moved the selection (keys or pointer) since the search last changed: the palette's
  // own pick, made a frame later, then leaves it alone (an arrow can land before that frame)
  const steered = useRef(false);
  const [hint, setHint] = useState('');
  const listRef = useRef<HTMLDivElement>(null);

  const autoPick = useCallback(() => {
    const items = [...(listRef.current?.querySelectorAll<HTMLElement>('[cmdk-item]') ?? [])].map((el) => ({ value: el.getAttribute('data-value') ?? '', disabled: el.getAttribute('aria-disabled') === 'true' }));
    return preselect(items, searchRef.current) || none();
  }, [none]);
  const steer = (by: 'keys' | 'pointer') => {
    steering.current = by;
    queueMicrotask(() => {
      steering.current = null;
    });
  };

  useEffect(() => {
    if (!open) return undefined;
    // once cmdk has filtered and sorted for the new search: the palette's own pick
    const raf = requestAnimationFrame(() => {
      if (!steered.current) setValue(autoPick());
    });
    return () => cancelAnimationFrame(raf);
  }, [search, open, autoPick]);
  useEffect(() => {
    if (!open) {
      setSearch('');
      setValue(none());
      setHint('');
      chosen.current = null;
      steered.current = false;
    }
  }, [open, none]);
  const close = () => show(null);
  const typed = search.trim() !== '';
  const built = useMemo(() => (open ? buildItems(typed, keymap, mac, watchlist, select, show) : { byValue: new Map<string, () => void>(), list: null }), [open, typed, keymap, mac, watchlist, select, show]);
  return (
    <Modal open={open} onClose={close} title="Command palette" className="palette">
      <Command
        label="Command palette"
        loop
        filter={filter}
        value={value}
        onValueChange={(v) => {
          if (steering.current === 'keys') {
            steered.current = true;
            chosen.current = v;
            setValue(v);
          } else if (steering.current === 'pointer') {
            // hovering shows where the pointer is; it does not choose (a click does)
            steered.current = true;
            chosen.current = null;
            setValue(v);
          } else {
            setValue(autoPick());
          }
        }}
        onKeyDown={(e) => {
          if (isMoveKey(e)) steer('keys');
          if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
          // Enter is ours: cmdk's would run its own selection, which may not be what is shown
          e.preventDefault();
          const v = valueRef.current;
          const go = built.byValue.get(v);
          if (go && enterMayRun(v, searchRef.current, chosen.current)) go();
          else if (go || isDangerValue(v) || typed) setHint('An action that sends, cancels or changes orders runs only when you choose it: type its name, move to it with ↓ ↑, then Enter (or click it).');
        }}
        onPointerMoveCapture={() => steer('pointer')}
      >
        <Command.Input
          autoFocus
          placeholder="Type an action or a market…"
          aria-label="Search actions"
          value={search}
          onValueChange={(q) => {
            chosen.current = null;
            steered.current = false;
            setHint('');
            setSearch(q);
          }}
        />
        {hint ? (
          <div className="palette-hint dim" role="status">
            {hint}
          </div>
        ) : null}
        <Command.List ref={listRef}>
          <Command.Empty>No action matches.</Command.Empty>
          {built.list}
        </Command.List>
      </Command>
    </Modal>
  );
}
