// Ctrl/Cmd+K: every action by name with its key, plus markets to jump to. Ranked by cmdk's match
// score; an action that trades or cancels is never preselected on a partial match (palette-rank).
import { useEffect, useRef, useState } from 'react';
import { Command, defaultFilter } from 'cmdk';
import { runCommand, hasCommand } from '../../lib/commands';
import { ACTIONS, formatCombo, isMacPlatform, type ActionGroup } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import { useOverlay } from '../../stores/ui';
import { Modal } from '../../ui/Modal';
import { actionValue, preselect, rankItem } from './palette-rank';

const filter = rankItem(defaultFilter ?? (() => 1));

const GROUPS: ActionGroup[] = ['Trading', 'Ticket', 'Ladder', 'Panels', 'App'];

export function CommandPalette() {
  const open = useOverlay((s) => s.open === 'palette');
  const show = useOverlay((s) => s.show);
  const keymap = useSession((s) => s.keymap);
  const watchlist = useTrading((s) => s.watchlist);
  const select = useTrading((s) => s.selectMarket);
  const mac = isMacPlatform();
  const [search, setSearch] = useState('');
  const [value, setValue] = useState('');
  // the next selection cmdk makes is its own pick after the search changed, not the trader's
  const auto = useRef(false);
  const listRef = useRef<HTMLDivElement>(null);
  const pickFor = (q: string) => {
    const items = [...(listRef.current?.querySelectorAll<HTMLElement>('[cmdk-item]') ?? [])].map((el) => ({ value: el.getAttribute('data-value') ?? '', disabled: el.getAttribute('aria-disabled') === 'true' }));
    return preselect(items, q);
  };
  useEffect(() => {
    if (!open) return undefined;
    const raf = requestAnimationFrame(() => {
      if (auto.current) setValue(pickFor(search));
    });
    return () => cancelAnimationFrame(raf);
  }, [search, open]);
  useEffect(() => {
    if (!open) {
      setSearch('');
      setValue('');
    }
  }, [open]);
  const close = () => show(null);
  const actionItems = (g: ActionGroup | null) =>
    ACTIONS.filter((a) => (g === null || a.group === g) && a.id !== 'app.palette').map((a) => (
      <Command.Item key={a.id} value={actionValue(a.id, a.label)} onSelect={() => run(a.id)} disabled={!hasCommand(a.id)}>
        <span>{a.label}</span>
        {keymap[a.id] ? <span className="kbd">{formatCombo(keymap[a.id]!, mac)}</span> : null}
      </Command.Item>
    ));
  const marketItems = watchlist.map((t) => (
    <Command.Item
      key={`market ${t}`}
      value={`open market ${t}`}
      onSelect={() => {
        select(t);
        run('panel.ladder');
      }}
    >
      <span>
        Open <span className="mono">{t}</span>
      </span>
    </Command.Item>
  ));
  const run = (id: string) => {
    close();
    // after the dialog has closed and given focus back
    setTimeout(() => runCommand(id), 0);
  };
  return (
    <Modal open={open} onClose={close} title="Command palette" className="palette">
      <Command
        label="Command palette"
        loop
        filter={filter}
        value={value}
        onValueChange={(v) => setValue(auto.current ? pickFor(search) : v)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') auto.current = false;
        }}
        onPointerMoveCapture={() => {
          auto.current = false;
        }}
      >
        <Command.Input
          autoFocus
          placeholder="Type an action or a market…"
          aria-label="Search actions"
          value={search}
          onValueChange={(q) => {
            auto.current = true;
            setSearch(q);
          }}
        />
        <Command.List ref={listRef}>
          <Command.Empty>No action matches.</Command.Empty>
          {/* while searching, one list ranked by match (cmdk does not reorder groups); by group otherwise */}
          {search.trim()
            ? [...actionItems(null), ...marketItems]
            : GROUPS.map((g) => (
                <Command.Group key={g} heading={g}>
                  {actionItems(g)}
                </Command.Group>
              ))}
          {!search.trim() && marketItems.length > 0 && <Command.Group heading="Watchlist">{marketItems}</Command.Group>}
        </Command.List>
      </Command>
    </Modal>
  );
}
