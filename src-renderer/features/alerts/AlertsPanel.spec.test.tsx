// @vitest-environment jsdom
// The Alerts panel as a trader uses it: the alerts main holds, with their state and what fired;
// a new alert of each kind sent as the condition main parses; edit, silence, re-arm and delete
// (by button and by key); and its loading, empty and error states.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertsView, AlertView } from '../../../src-shared/ipc/contract';
import { clearFakeCalls, installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { setAlertsView, useTools } from '../../stores/tools';
import { useTrading } from '../../stores/trading';
import { AlertsPanel } from './AlertsPanel';

let fake: FakeTerminal;
const T = 'KXA-26DEC31-T1';
const alert = (id: string, over: Partial<AlertView> = {}): AlertView => ({
  id,
  condition: { kind: 'price', ticker: T, source: 'last', direction: 'above', level: '0.5500' },
  note: '',
  rearm: false,
  sound: true,
  state: 'armed',
  createdAt: 1_760_000_000_000,
  firedAt: null,
  fireCount: 0,
  summary: `${T} last trade rises to 0.55 or above`,
  ...over,
});
const VIEW: AlertsView = {
  alerts: [
    alert('a-1'),
    alert('a-2', { state: 'fired', firedAt: 1_760_000_100_000, fireCount: 2, summary: `${T} spread wider than 0.05`, condition: { kind: 'spread', ticker: T, direction: 'wider', value: '0.05' }, note: 'watch the open', rearm: true }),
  ],
  history: [
    { id: 'h-1', alertId: 'a-2', ts: 1_760_000_050_000, title: 'Spread alert', body: 'first time' },
    { id: 'h-2', alertId: 'a-2', ts: 1_760_000_100_000, title: 'Spread alert', body: 'second time' },
  ],
};

const list = () => screen.getByRole('table', { name: 'Alerts' });
const rowOf = (text: string) => within(list()).getByText(text).closest('tr')!;
const cellOf = (row: HTMLElement, column: string) => row.querySelector(`td[data-col="${column}"]`)?.textContent ?? '';
const form = (name: 'New alert' | 'Edit alert' = 'New alert') => screen.getByRole('form', { name });
const saved = () => fake.api.saveAlert.mock.calls.map(([input]) => input as { id?: string; condition: unknown; rearm: boolean; sound: boolean; note?: string });

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  clearFakeCalls(fake);
  useTools.setState({ alerts: VIEW });
  useTrading.getState().selectMarket(T);
});
afterEach(cleanup);

describe('the Alerts panel', () => {
  it('lists each alert with its state, words, note, re-arm and how often it fired', () => {
    render(withQueries(<AlertsPanel />));
    const armed = rowOf(`${T} last trade rises to 0.55 or above`);
    expect(cellOf(armed, 'state')).toBe('armed');
    expect(cellOf(armed, 'fired')).toBe('—');
    expect(within(armed).getByRole('button', { name: 'Silence' })).toBeTruthy();
    const fired = rowOf(`${T} spread wider than 0.05`);
    expect(cellOf(fired, 'state')).toBe('fired');
    expect(cellOf(fired, 'note')).toBe('watch the open');
    expect(cellOf(fired, 'rearm')).toBe('yes');
    expect(cellOf(fired, 'fired')).toMatch(/^2× · /);
    // a fired alert is re-armed, not silenced
    expect(within(fired).getByRole('button', { name: 'Re-arm' })).toBeTruthy();
    expect(within(fired).queryByRole('button', { name: 'Silence' })).toBeNull();
  });

  it('shows what fired, newest first', () => {
    render(withQueries(<AlertsPanel />));
    const history = screen.getByRole('table', { name: 'Alert history' });
    const bodies = within(history)
      .getAllByRole('row')
      .slice(1)
      .map((r) => cellOf(r, 'body'));
    expect(bodies).toEqual(['second time', 'first time']);
  });

  it('a new price alert starts on the linked market and is sent as the condition typed', async () => {
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    const f = within(form());
    expect((f.getByRole('textbox', { name: 'Alert market' }) as HTMLInputElement).value).toBe(T);
    await user.selectOptions(f.getByRole('combobox', { name: 'Price source' }), 'bid');
    await user.selectOptions(f.getByRole('combobox', { name: 'Direction' }), 'below');
    await user.type(f.getByRole('textbox', { name: 'Level' }), '0.42');
    await user.type(f.getByRole('textbox', { name: 'Note' }), '  cut here ');
    await user.click(f.getByRole('checkbox', { name: 'Re-arm' }));
    await user.click(f.getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toEqual({ condition: { kind: 'price', ticker: T, source: 'bid', direction: 'below', level: '0.42' }, rearm: true, sound: true, note: 'cut here' });
    // the form starts over, on the same market
    await waitFor(() => expect((within(form()).getByRole('textbox', { name: 'Level' }) as HTMLInputElement).value).toBe(''));
  });

  it('sends a spread, a volume and a lifecycle alert with their own fields', async () => {
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    const kind = () => within(form()).getByRole('combobox', { name: 'Alert kind' });
    await user.selectOptions(kind(), 'spread');
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Spread direction' }), 'narrower');
    await user.clear(within(form()).getByRole('textbox', { name: 'Spread value' }));
    await user.type(within(form()).getByRole('textbox', { name: 'Spread value' }), '0.01');
    await user.click(within(form()).getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    await user.selectOptions(kind(), 'volume');
    await user.clear(within(form()).getByRole('textbox', { name: 'Contracts' }));
    await user.type(within(form()).getByRole('textbox', { name: 'Contracts' }), '250');
    await user.clear(within(form()).getByRole('textbox', { name: 'Window seconds' }));
    await user.type(within(form()).getByRole('textbox', { name: 'Window seconds' }), '30');
    await user.click(within(form()).getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(2));
    await user.selectOptions(kind(), 'lifecycle');
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Lifecycle event' }), 'closed');
    await user.click(within(form()).getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(3));
    expect(saved().map((s) => s.condition)).toEqual([
      { kind: 'spread', ticker: T, direction: 'narrower', value: '0.01' },
      { kind: 'volume', ticker: T, contracts: '250', windowSec: 30 },
      { kind: 'lifecycle', ticker: T, when: 'closed' },
    ]);
  });

  it('an order alert needs no market unless it is limited to one', async () => {
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Alert kind' }), 'order');
    expect(within(form()).queryByRole('textbox', { name: 'Alert market' })).toBeNull();
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Order event' }), 'canceled');
    await user.click(within(form()).getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]!.condition).toEqual({ kind: 'order', when: 'canceled' });
    // a saved alert leaves a blank price form
    await waitFor(() => expect((within(form()).getByRole('combobox', { name: 'Alert kind' }) as HTMLSelectElement).value).toBe('price'));
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Alert kind' }), 'order');
    await user.click(within(form()).getByRole('checkbox', { name: 'Only one market' }));
    expect((within(form()).getByRole('textbox', { name: 'Alert market' }) as HTMLInputElement).value).toBe(T);
    await user.click(within(form()).getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(2));
    expect(saved()[1]!.condition).toEqual({ kind: 'order', when: 'filled', ticker: T });
  });

  it('will not add an alert without a market', async () => {
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    await user.clear(within(form()).getByRole('textbox', { name: 'Alert market' }));
    expect((within(form()).getByRole('button', { name: 'Add alert' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(form()).getByRole('button', { name: 'Add alert' }));
    expect(saved()).toHaveLength(0);
  });

  it('Edit loads an alert into the form and saves it under its id; Cancel edit starts over', async () => {
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    await user.click(within(rowOf(`${T} spread wider than 0.05`)).getByRole('button', { name: 'Edit' }));
    const f = within(form('Edit alert'));
    expect((f.getByRole('combobox', { name: 'Alert kind' }) as HTMLSelectElement).value).toBe('spread');
    expect((f.getByRole('textbox', { name: 'Spread value' }) as HTMLInputElement).value).toBe('0.05');
    expect((f.getByRole('textbox', { name: 'Note' }) as HTMLInputElement).value).toBe('watch the open');
    await user.clear(f.getByRole('textbox', { name: 'Spread value' }));
    await user.type(f.getByRole('textbox', { name: 'Spread value' }), '0.08');
    await user.click(f.getByRole('button', { name: 'Save alert' }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({ id: 'a-2', condition: { kind: 'spread', ticker: T, direction: 'wider', value: '0.08' }, rearm: true, note: 'watch the open' });
    await user.click(within(rowOf(`${T} spread wider than 0.05`)).getByRole('button', { name: 'Edit' }));
    await user.click(within(form('Edit alert')).getByRole('button', { name: 'Cancel edit' }));
    expect(screen.getByRole('form', { name: 'New alert' })).toBeTruthy();
  });

  it('Silence, Re-arm and Delete ask main for exactly that alert; Delete on the active row too', async () => {
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    await user.click(within(rowOf(`${T} last trade rises to 0.55 or above`)).getByRole('button', { name: 'Silence' }));
    await user.click(within(rowOf(`${T} spread wider than 0.05`)).getByRole('button', { name: 'Re-arm' }));
    await user.click(within(rowOf(`${T} spread wider than 0.05`)).getByRole('button', { name: 'Delete' }));
    screen.getByRole('region', { name: /^Alerts: arrows move/ }).focus();
    await user.keyboard('{Home}{Delete}');
    await waitFor(() => expect(fake.api.alertAction).toHaveBeenCalledTimes(4));
    expect(fake.api.alertAction.mock.calls.map(([i]) => i)).toEqual([
      { id: 'a-1', action: 'silence' },
      { id: 'a-2', action: 'arm' },
      { id: 'a-2', action: 'delete' },
      // the first row, as main listed them
      { id: 'a-1', action: 'delete' },
    ]);
  });

  it('follows the alerts main pushes', async () => {
    render(withQueries(<AlertsPanel />));
    act(() => setAlertsView({ alerts: [alert('a-9', { summary: `${T} settles` })], history: [] }));
    await waitFor(() => expect(within(list()).getByText(`${T} settles`)).toBeTruthy());
    expect(within(list()).queryByText(`${T} spread wider than 0.05`)).toBeNull();
    expect(screen.getByText('Nothing has fired yet.')).toBeTruthy();
  });

  it('says it is loading before main answered, and says what alerts do when there are none', () => {
    useTools.setState({ alerts: null });
    render(withQueries(<AlertsPanel />));
    expect(screen.getByText('Loading alerts…')).toBeTruthy();
    cleanup();
    useTools.setState({ alerts: { alerts: [], history: [] } });
    render(withQueries(<AlertsPanel />));
    expect(screen.getByText(/^No alerts\. They fire here/)).toBeTruthy();
  });

  it('keeps the next alert typed while the last one was saving (its row can show before the answer)', async () => {
    let answer!: () => void;
    fake.api.saveAlert.mockImplementationOnce(() => new Promise<void>((r) => (answer = r)));
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    const f = () => within(form());
    const level = () => f().getByRole('textbox', { name: 'Level' }) as HTMLInputElement;
    await user.type(level(), '0.05');
    await user.click(f().getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(f().getByRole('button', { name: 'Saving…' })).toBeTruthy();
    // the trader goes on to the next one before main answered
    await user.selectOptions(f().getByRole('combobox', { name: 'Direction' }), 'below');
    await user.clear(level());
    await user.type(level(), '0.06');
    await act(async () => answer());
    await waitFor(() => expect(f().getByRole('button', { name: 'Add alert' })).toBeTruthy());
    expect(level().value).toBe('0.06');
    expect((f().getByRole('combobox', { name: 'Direction' }) as HTMLSelectElement).value).toBe('below');
    await user.click(f().getByRole('button', { name: 'Add alert' }));
    await waitFor(() => expect(saved()).toHaveLength(2));
    expect(saved()[1]!.condition).toEqual({ kind: 'price', ticker: T, source: 'last', direction: 'below', level: '0.06' });
    // with nothing typed meanwhile, it starts over
    await waitFor(() => expect(level().value).toBe(''));
  });

  it("shows main's refusal of an alert and keeps the form as typed", async () => {
    fake.api.saveAlert.mockRejectedValueOnce(Object.assign(new Error('level must be between 0 and 1'), { kind: 'validation', code: 'invalid_args' }));
    render(withQueries(<AlertsPanel />));
    const user = userEvent.setup();
    await user.type(within(form()).getByRole('textbox', { name: 'Level' }), '1.50');
    await user.click(within(form()).getByRole('button', { name: 'Add alert' }));
    const refusal = await within(form()).findByRole('alert');
    expect(refusal.textContent).toContain('level must be between 0 and 1');
    expect((within(form()).getByRole('textbox', { name: 'Level' }) as HTMLInputElement).value).toBe('1.50');
  });
});
