// @vitest-environment jsdom
// The ladder's toolbar keeps to one line at every ladder width (the layout itself is checked in
// a real browser: e2e/ladder-pro.spec.ts). Here: one set of controls, each named and explained
// (a compact control shows an icon or a symbol, so its name and title carry the words); the
// settings behind "⋯" open as a menu, and Esc or a press outside closes it.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries } from '../../test/fake-terminal';
import { applyBooks, booksStore } from '../../stores/books';
import { applyPrivateUpdate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { LadderPanel } from './LadderPanel';

const T = 'KXTEST-26DEC31-T1';

beforeAll(() => {
  stubLayout();
  const fake = installFakeTerminal();
  fake.reads.getMarket = { market: { ticker: T, event_ticker: 'KXTEST-26DEC31', title: 'Will the test market close above 40?' } };
});
beforeEach(() => {
  booksStore.setState({ byTicker: new Map(), version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.getState().selectMarket(T);
  useTrading.getState().setLadderView('yes');
  act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
});
afterEach(cleanup);

const bar = () => document.querySelector<HTMLElement>('.ladder .panel-bar')!;

describe('the ladder toolbar', () => {
  it('holds one of each control, each with a name and a title', () => {
    render(withQueries(<LadderPanel />));
    const b = within(bar());
    for (const name of ['Row spacing', 'Improve by rows']) expect(b.getAllByRole('combobox', { name })).toHaveLength(1);
    for (const name of ['YES', 'NO', 'Follow', 'Σ', 'Vol', 'Center', 'More ladder settings']) expect(b.getAllByRole('button', { name })).toHaveLength(1);
    // a compact control (an icon, a symbol) is explained by its title or its label's
    for (const el of bar().querySelectorAll<HTMLElement>('button, select')) {
      if (el.closest('.seg')) continue; // YES / NO say it all
      const title = el.title || el.closest('label')?.title || '';
      expect(title.length, `${el.getAttribute('aria-label') ?? el.textContent} has a title`).toBeGreaterThan(10);
    }
    expect(b.getByRole('button', { name: 'Center' }).title).toMatch(/Center on the inside market \(C\)/);
  });

  it('the whole market name is in the title when the bar cuts it short', async () => {
    render(withQueries(<LadderPanel />));
    await waitFor(() => expect(bar().querySelector('.ladder-name')!.getAttribute('title')).toBe(`${T} — Will the test market close above 40?`));
  });

  it('"⋯" opens the settings as a menu; Esc closes it and gives focus back to "⋯"', async () => {
    render(withQueries(<LadderPanel />));
    const more = screen.getByRole('button', { name: 'More ladder settings' });
    const tools = screen.getByRole('group', { name: 'Ladder settings' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(more.getAttribute('aria-controls')).toBe(tools.id);
    expect(tools.className).not.toContain('is-open');
    const user = userEvent.setup();
    await user.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(tools.className).toContain('is-open');
    // a setting in the menu works as on the bar
    await user.selectOptions(within(tools).getByRole('combobox', { name: 'Improve by rows' }), '3');
    expect((within(tools).getByRole('combobox', { name: 'Improve by rows' }) as HTMLSelectElement).value).toBe('3');
    await user.click(within(tools).getByRole('button', { name: 'Σ' }));
    expect(document.querySelector('.ladder')!.className).toContain('no-cum');
    expect(more.getAttribute('aria-expanded'), 'the menu stays open while the trader sets things in it').toBe('true');
    fireEvent.keyDown(within(tools).getByRole('combobox', { name: 'Improve by rows' }), { key: 'Escape' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(more);
  });

  it('a press outside the bar closes the menu', async () => {
    render(withQueries(<LadderPanel />));
    const more = screen.getByRole('button', { name: 'More ladder settings' });
    const user = userEvent.setup();
    await user.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('true');
    fireEvent.pointerDown(screen.getByRole('grid'));
    expect(more.getAttribute('aria-expanded')).toBe('false');
    // "⋯" again toggles it
    await user.click(more);
    await user.click(more);
    expect(more.getAttribute('aria-expanded')).toBe('false');
  });

  it('a static ladder says so on Center, which centres and follows again', async () => {
    render(withQueries(<LadderPanel />));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    const center = screen.getByRole('button', { name: 'Center' });
    expect(center.hasAttribute('data-static')).toBe(true);
    expect(center.title).toMatch(/Static: center on the inside market and follow it again/);
    await user.click(center);
    expect(screen.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Center' }).hasAttribute('data-static')).toBe(false);
  });
});
