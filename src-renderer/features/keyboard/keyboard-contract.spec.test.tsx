// @vitest-environment jsdom
// The keyboard contract (issue 24): every key map entry, pressed in every focus context a trader
// meets (the ladder, the ticket with and without a field focused, the markets list, a dialog, the
// palette), does exactly its documented action or nothing. The table below is written out by hand
// from the help overlay's promises, not derived from the dispatcher, so a change in what a key
// does in some context fails here until the table (and the help) say so.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { registerCommand } from '../../lib/commands';
import { ACTIONS, PANEL_IDS, resolveKeymap } from '../../lib/keymap';
import { useSession } from '../../stores/session';
import { useGlobalHotkeys } from './useGlobalHotkeys';
import { pressBinding as press } from '../../test/keys';

type Context = 'ladder' | 'ticket' | 'ticket field' | 'markets list' | 'dialog' | 'palette';
const CONTEXTS: Context[] = ['ladder', 'ticket', 'ticket field', 'markets list', 'dialog', 'palette'];

/** Keys that act from anywhere, even typing in a field or with a dialog open (the help's promise). */
const EVERYWHERE = new Set(['ticket.submit', 'risk.engageKill', 'risk.releaseKill', 'app.palette', 'app.settings', ...PANEL_IDS.map((p) => `panel.${p}`)]);
/** Where a plain (non-global) key acts: focus on a panel, not in a field, no dialog open. */
const PLAIN_KEYS_ACT: Record<Context, boolean> = { ladder: true, ticket: true, 'ticket field': false, 'markets list': true, dialog: false, palette: false };

/** In the ladder's rows a bare digit types the ladder's size (digits, then Enter): the presets 1-5 do nothing there. */
const SIZE_PRESETS = new Set(['ticket.size1', 'ticket.size2', 'ticket.size3', 'ticket.size4', 'ticket.size5']);

function expected(id: string, ctx: Context): 'runs' | 'nothing' {
  if (EVERYWHERE.has(id)) return 'runs';
  if (ctx === 'ladder' && SIZE_PRESETS.has(id)) return 'nothing';
  return PLAIN_KEYS_ACT[ctx] ? 'runs' : 'nothing';
}

function Stage() {
  useGlobalHotkeys();
  return (
    <div>
      <div data-panel="ladder">
        <div role="grid" aria-label="Price ladder" tabIndex={0} data-ctx="ladder" data-typed-size />
      </div>
      <div data-panel="ticket">
        <form className="ticket" aria-label="Order ticket" tabIndex={-1} data-ctx="ticket">
          <input name="price" aria-label="Price" data-ctx="ticket field" />
        </form>
      </div>
      <div data-panel="markets">
        <div role="region" aria-label="Markets" tabIndex={0} data-ctx="markets list" />
      </div>
      <dialog id="dialog">
        <button type="button" data-ctx="dialog">
          Keep
        </button>
      </dialog>
      <dialog id="palette">
        <input aria-label="Search actions" data-ctx="palette" />
      </dialog>
    </div>
  );
}


function enter(ctx: Context) {
  for (const d of document.querySelectorAll('dialog')) d.removeAttribute('open');
  if (ctx === 'dialog') document.getElementById('dialog')!.setAttribute('open', '');
  if (ctx === 'palette') document.getElementById('palette')!.setAttribute('open', '');
  const el = document.querySelector<HTMLElement>(`[data-ctx="${ctx}"]`)!;
  el.focus();
  expect(document.activeElement).toBe(el);
}

const ran: string[] = [];
let offs: (() => void)[] = [];

beforeEach(() => {
  useSession.setState({ keymap: resolveKeymap() });
  ran.length = 0;
  offs = ACTIONS.map((a) => registerCommand(a.id, () => ran.push(a.id)));
});
afterEach(() => {
  offs.forEach((off) => off());
  cleanup();
});

describe('the keyboard contract: every key × every focus context', () => {
  const keymap = resolveKeymap();
  const cases = CONTEXTS.flatMap((ctx) => ACTIONS.filter((a) => keymap[a.id]).map((a) => [ctx, a.id, keymap[a.id]!, expected(a.id, ctx)] as const));

  it.each(cases)('%s: %s (%s) %s', (ctx, id, combo, want) => {
    render(<Stage />);
    enter(ctx);
    press(combo);
    expect(ran).toEqual(want === 'runs' ? [id] : []);
  });

  it('every action with a default key is in the table, and no two share a key', () => {
    const combos = ACTIONS.map((a) => keymap[a.id]).filter(Boolean);
    expect(new Set(combos).size).toBe(combos.length);
    expect(cases.length).toBe(CONTEXTS.length * combos.length);
  });

  it('the actions that trade or cancel are marked dangerous, so the palette never preselects them on a partial match', () => {
    const danger = ACTIONS.filter((a) => a.danger).map((a) => a.id).sort();
    expect(danger).toEqual(['app.resetLayout', 'ladder.cancelAsks', 'ladder.cancelBids', 'ladder.improveAsk', 'ladder.improveBid', 'risk.engageKill', 'risk.releaseKill', 'ticket.submit', 'trade.buyAsk', 'trade.buyBid', 'trade.cancelAllMarket', 'trade.flatten', 'trade.reverse', 'trade.sellAsk', 'trade.sellBid']);
  });
});
