// Ctrl/Cmd+K: every action by name with its key, plus markets to jump to.
import { Command } from 'cmdk';
import { runCommand, hasCommand } from '../../lib/commands';
import { ACTIONS, formatCombo, isMacPlatform, type ActionGroup } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import { useOverlay } from '../../stores/ui';
import { Modal } from '../../ui/Modal';

const GROUPS: ActionGroup[] = ['Trading', 'Ticket', 'Ladder', 'Panels', 'App'];

export function CommandPalette() {
  const open = useOverlay((s) => s.open === 'palette');
  const show = useOverlay((s) => s.show);
  const keymap = useSession((s) => s.keymap);
  const watchlist = useTrading((s) => s.watchlist);
  const select = useTrading((s) => s.selectMarket);
  const mac = isMacPlatform();
  const close = () => show(null);
  const run = (id: string) => {
    close();
    // after the dialog has closed and given focus back
    setTimeout(() => runCommand(id), 0);
  };
  return (
    <Modal open={open} onClose={close} title="Command palette" className="palette">
      <Command label="Command palette" loop>
        <Command.Input autoFocus placeholder="Type an action or a market…" aria-label="Search actions" />
        <Command.List>
          <Command.Empty>No action matches.</Command.Empty>
          {GROUPS.map((g) => (
            <Command.Group key={g} heading={g}>
              {ACTIONS.filter((a) => a.group === g && a.id !== 'app.palette').map((a) => (
                <Command.Item key={a.id} value={`${a.label} ${a.id}`} onSelect={() => run(a.id)} disabled={!hasCommand(a.id)}>
                  <span>{a.label}</span>
                  {keymap[a.id] ? <span className="kbd">{formatCombo(keymap[a.id]!, mac)}</span> : null}
                </Command.Item>
              ))}
            </Command.Group>
          ))}
          {watchlist.length > 0 && (
            <Command.Group heading="Watchlist">
              {watchlist.map((t) => (
                <Command.Item
                  key={t}
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
              ))}
            </Command.Group>
          )}
        </Command.List>
      </Command>
    </Modal>
  );
}
