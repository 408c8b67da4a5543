// "?" or F1: every binding, grouped, plus the keys that work inside the ladder, tables and the layout.
import { useCommand } from '../../lib/commands';
import { ACTIONS, formatCombo, isMacPlatform, type ActionGroup } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { useOverlay } from '../../stores/ui';
import { Modal } from '../../ui/Modal';

const GROUPS: ActionGroup[] = ['Trading', 'Ticket', 'Ladder', 'Panels', 'App'];

const LOCAL: [string, [string, string][]][] = [
  [
    'In the ladder (focus it with its panel key)',
    [
      ['↑ / ↓', 'Move the row cursor'],
      ['PgUp / PgDn', 'Scroll the prices'],
      ['[', 'Bid at the cursor row (NO view: buy NO)'],
      [']', 'Offer at the cursor row (NO view: sell NO)'],
      ['Del', 'Cancel my orders at the cursor row'],
      ['Shift+↑ / Shift+↓', 'Move my orders at the cursor row one row'],
      ['Digits, then Enter', 'Set the order size (shown in the foot; sends nothing; 0 or over the risk limit is refused). Here 1-5 are digits, not the size presets'],
      ['Esc / Backspace', 'Abandon the typed size / take a digit back'],
      ['[ ] while typing a size', 'Nothing is sent until Enter sets the size (or Esc)'],
      ['Improve (toolbar)', 'How many rows Alt+[ / Alt+] improve by (1, 2, 3, 5 or 10)'],
      ['Click', 'Bid or offer at that price; on my order: cancel it'],
      ['Drag my order', 'Move it to another price (amend)'],
    ],
  ],
  [
    'In the order ticket',
    [
      ['Alt+3', 'Focus the ticket itself (no field): = - 1-5 T Ctrl+Enter act on it'],
      ['= / -', 'Step the price one tick of the market (in the price field too)'],
      ['P / Q', 'Enter the price / the count field'],
      ['Digits in a field', 'Type the count or the price (not the size presets)'],
      ['Other keys in a field', 'Nothing: letters and trading keys are never typed'],
      ['Enter / Ctrl+Enter', 'Submit exactly what the ticket button says'],
    ],
  ],
  [
    'In tables',
    [
      ['↑ / ↓ / Home / End', 'Move the active row'],
      ['Space', 'Select the row (where rows can be selected)'],
      ['Enter', 'Open the row'],
      ['Del', 'Cancel or remove the row (orders)'],
      ['Tab', 'Reach the row buttons'],
    ],
  ],
  [
    'Layout',
    [
      ['Alt+1 … Alt+0, Alt+-', 'Show and focus a panel (reopens a closed one)'],
      ['← / → on a tab strip', 'Switch tabs inside a panel'],
      ['Esc', 'Close a dialog'],
    ],
  ],
];

export function HelpOverlay() {
  const open = useOverlay((s) => s.open === 'help');
  const show = useOverlay((s) => s.show);
  const keymap = useSession((s) => s.keymap);
  const mac = isMacPlatform();
  // F1 opens it as in most programs ("?" is app.help, run by the app)
  useCommand('app.helpF1', () => show(open ? null : 'help'));
  return (
    <Modal open={open} onClose={() => show(null)} title="Keyboard">
      <div className="u-cols-2-300px-cg-24">
        {GROUPS.map((g) => (
          <section key={g} className="u-bi-avoid-mb-10">
            <h3 className="dim u-fs-11-tt-uppercase-m-0-0-4px">
              {g}
            </h3>
            <table className="grid">
              <tbody>
                {ACTIONS.filter((a) => a.group === g).map((a) => (
                  <tr key={a.id}>
                    <td>{a.label}</td>
                    <td className="u-w-110-ta-right">{keymap[a.id] ? <span className="kbd">{formatCombo(keymap[a.id]!, mac)}</span> : <span className="faint">unbound</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        {LOCAL.map(([title, rows]) => (
          <section key={title} className="u-bi-avoid-mb-10">
            <h3 className="dim u-fs-11-tt-uppercase-m-0-0-4px">
              {title}
            </h3>
            <table className="grid">
              <tbody>
                {rows.map(([k, what]) => (
                  <tr key={k}>
                    <td>{what}</td>
                    <td className="u-w-130-ta-right">
                      <span className="kbd">{k}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
      <p className="faint u-mb-0">
        Remap any key in Settings ({formatCombo(keymap['app.settings'] ?? '', mac) || 'from the palette'}). Charts by TradingView Lightweight Charts™.
      </p>
    </Modal>
  );
}
