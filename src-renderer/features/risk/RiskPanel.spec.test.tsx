// @vitest-environment jsdom
// The Risk & audit panel as a trader uses it: the kill switch's state and its engage/release
// round trips to main, today's P&L against the loss limit, the limits form (a field per limit,
// validation before anything is sent, save/undo/defaults), and the audit journal with its
// filters asked of main, newest first, refusals marked.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_RISK_LIMITS, type AuditEntry, type RiskLimits, type RiskView } from '../../../src-shared/ipc/risk';
import { clearFakeCalls, installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { useRisk } from '../../stores/risk';
import { ConfirmHost } from '../../ui/confirm';
import { useNotices } from '../../stores/notices';
import type { LocalOrderView } from '../../../src-shared/ipc/tools';
import { KillReleaseHost } from './KillReleaseDialog';
import { RiskPanel } from './RiskPanel';

let fake: FakeTerminal;
const view = (over: Partial<RiskView> = {}): RiskView => ({
  profileId: 'demo',
  limits: { ...DEFAULT_RISK_LIMITS },
  killSwitch: { engaged: false, since: null, detail: '' },
  dailyPnl: '-500.00',
  ...over,
} as RiskView);
const entry = (ts: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  ts,
  profileId: 'demo',
  keyId: null,
  action: 'place',
  origin: 'ticket',
  ticker: 'KXR-1',
  asked: { side: 'bid', price: '0.45', count: '5' },
  gate: 'passed',
  clientOrderId: `c-${ts}`,
  outcome: 'ok',
  answer: `order o-${ts} resting`,
  latencyMs: 12,
  ...over,
});

const limitsForm = () => screen.getByRole('region', { name: 'Risk limits' });
const input = (label: string) => within(limitsForm()).getByRole('textbox', { name: label }) as HTMLInputElement;
const button = (name: string) => within(limitsForm()).getByRole('button', { name }) as HTMLButtonElement;

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  clearFakeCalls(fake);
  useRisk.setState({ view: view() });
  fake.api.getAuditLog.mockImplementation(async () => []);
});
afterEach(cleanup);

describe('the Risk panel: kill switch and P&L', () => {
  it('shows the switch off, and Engage asks main and shows what main answered', async () => {
    fake.api.engageKillSwitch.mockImplementation(async () => view({ killSwitch: { engaged: true, since: 1_760_000_000_000, detail: 'engaged from the Risk panel' } }));
    render(withQueries(<RiskPanel />));
    const ks = screen.getByRole('region', { name: 'Kill switch' });
    expect(within(ks).getByRole('status').textContent).toBe('off');
    await userEvent.setup().click(within(ks).getByRole('button', { name: 'Engage kill switch' }));
    await waitFor(() => expect(within(ks).getByRole('status').textContent).toMatch(/^ENGAGED since /));
    expect(fake.api.engageKillSwitch).toHaveBeenCalledTimes(1);
    expect(ks.textContent).toContain('engaged from the Risk panel');
    expect(within(ks).getByRole('button', { name: 'Release…' })).toBeTruthy();
  });

  it('Release asks first; Keep sends nothing; confirmed, main releases it', async () => {
    useRisk.setState({ view: view({ killSwitch: { engaged: true, since: null, detail: 'daily loss limit' } }) });
    fake.api.releaseKillSwitch.mockImplementation(async () => view());
    render(withQueries(
      <>
        <ConfirmHost />
        <RiskPanel />
      </>,
    ));
    const user = userEvent.setup();
    const ks = screen.getByRole('region', { name: 'Kill switch' });
    await user.click(within(ks).getByRole('button', { name: 'Release…' }));
    await user.click(await screen.findByRole('button', { name: 'Keep' }));
    expect(fake.api.releaseKillSwitch).not.toHaveBeenCalled();
    await user.click(within(ks).getByRole('button', { name: 'Release…' }));
    await user.click(await screen.findByRole('button', { name: 'Release' }));
    await waitFor(() => expect(fake.api.releaseKillSwitch).toHaveBeenCalledWith({ confirm: true }));
    await waitFor(() => expect(within(ks).getByRole('status').textContent).toBe('off'));
  });

  const localOrder = (id: string, kind: LocalOrderView['kind'], state: LocalOrderView['state']): LocalOrderView => ({
    id,
    kind,
    ticker: 'KXR-1',
    side: 'ask',
    count: '1',
    source: 'last',
    trigger: '0.4500',
    trailTicks: kind === 'trailing_stop' ? 2 : null,
    limit: { kind: 'through', ticks: 1 },
    tick: '0.01',
    state,
    ocoGroup: null,
    entryOrderId: null,
    sentOrderId: null,
    detail: '',
    createdAt: 1,
    updatedAt: 1,
  });

  it('engaging says which local orders it holds (issue 34)', async () => {
    fake.api.engageKillSwitch.mockImplementation(async () => view({ killSwitch: { engaged: true, since: 1_760_000_000_000, detail: 'canceled 3 orders' } }));
    fake.api.getLocalOrders.mockImplementation(async () => ({ orders: [localOrder('a', 'stop', 'kill_held'), localOrder('b', 'stop', 'kill_held'), localOrder('c', 'trailing_stop', 'kill_held')], awaitingChoice: false, live: true }));
    render(withQueries(<RiskPanel />));
    const ks = screen.getByRole('region', { name: 'Kill switch' });
    await userEvent.setup().click(within(ks).getByRole('button', { name: 'Engage kill switch' }));
    await waitFor(() => expect(useNotices.getState().toasts.some((t) => t.title === 'Kill switch engaged' && /Local orders held .*2 stops, 1 trailing stop/.test(t.body ?? ''))).toBe(true));
    await waitFor(() => expect(ks.textContent).toContain('Local orders held: 2 stops, 1 trailing stop'));
  });

  it('release says what resumes and asks per kind: Keep is focused, only the ticked kind is armed again (issue 34)', async () => {
    useRisk.setState({ view: view({ killSwitch: { engaged: true, since: null, detail: 'manual' } }) });
    fake.api.getLocalOrders.mockImplementation(async () => ({ orders: [localOrder('a', 'stop', 'kill_held'), localOrder('c', 'trailing_stop', 'kill_held'), localOrder('d', 'stop', 'canceled')], awaitingChoice: false, live: true }));
    fake.api.releaseKillSwitch.mockImplementation(async () => view());
    fake.api.releaseKillHeldLocal.mockImplementation(async () => ({ orders: [], awaitingChoice: false, live: true }));
    render(withQueries(
      <>
        <ConfirmHost />
        <KillReleaseHost />
        <RiskPanel />
      </>,
    ));
    const user = userEvent.setup();
    const ks = screen.getByRole('region', { name: 'Kill switch' });
    await user.click(within(ks).getByRole('button', { name: 'Release…' }));
    const dialog = await screen.findByRole('dialog', { name: /^Release the kill switch\?/ });
    expect(dialog.textContent).toMatch(/strategies it stopped stay stopped/);
    const stops = within(dialog).getByRole('checkbox', { name: 'Re-arm 1 stop' }) as HTMLInputElement;
    const trailing = within(dialog).getByRole('checkbox', { name: 'Re-arm 1 trailing stop' }) as HTMLInputElement;
    expect(stops.checked).toBe(false);
    expect(trailing.checked).toBe(false);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep' }));
    await user.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(fake.api.releaseKillSwitch).not.toHaveBeenCalled();
    expect(fake.api.releaseKillHeldLocal).not.toHaveBeenCalled();

    await user.click(within(ks).getByRole('button', { name: 'Release…' }));
    const again = await screen.findByRole('dialog', { name: /^Release the kill switch\?/ });
    await user.click(within(again).getByRole('checkbox', { name: 'Re-arm 1 stop' }));
    await user.click(within(again).getByRole('button', { name: 'Release' }));
    await waitFor(() => expect(fake.api.releaseKillHeldLocal).toHaveBeenCalledWith({ rearm: ['stop'] }));
    expect(fake.api.releaseKillSwitch).toHaveBeenCalledWith({ confirm: true });
    await waitFor(() => expect(useNotices.getState().toasts.some((t) => t.title === 'Kill switch released' && /armed again: 1 stop; left disarmed: 1 trailing stop/.test(t.body ?? ''))).toBe(true));
  });

  it('cannot engage without an active profile', () => {
    useRisk.setState({ view: view({ profileId: null }) });
    render(withQueries(<RiskPanel />));
    expect((screen.getByRole('button', { name: 'Engage kill switch' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('No active profile: limits are kept per profile.')).toBeTruthy();
  });

  it("shows today's loss against the loss limit: $500 of $2500 is 20% used", () => {
    render(withQueries(<RiskPanel />));
    const today = screen.getByRole('region', { name: "Today's P&L" });
    expect(today.querySelector('strong')?.textContent).toBe('-$500.00');
    expect(today.querySelector('strong')?.className).toBe('neg');
    expect(within(today).getByRole('meter', { name: 'Daily loss limit used' }).getAttribute('aria-valuenow')).toBe('20');
    expect(today.textContent).toContain('loss limit $2,500.00 · used 20%');
  });

  it('a gain uses none of the loss limit, and a loss past it shows 100%', () => {
    useRisk.setState({ view: view({ dailyPnl: '120.50' }) });
    render(withQueries(<RiskPanel />));
    expect(screen.getByRole('meter', { name: 'Daily loss limit used' }).getAttribute('aria-valuenow')).toBe('0');
    cleanup();
    useRisk.setState({ view: view({ dailyPnl: '-9000.00' }) });
    render(withQueries(<RiskPanel />));
    expect(screen.getByRole('meter', { name: 'Daily loss limit used' }).getAttribute('aria-valuenow')).toBe('100');
  });

  it('says it is loading before main sent the risk view', () => {
    useRisk.setState({ view: null });
    render(withQueries(<RiskPanel />));
    expect(screen.getByRole('status').textContent).toContain('Loading the risk limits…');
  });
});

describe('the Risk panel: limits', () => {
  it('has a field for every limit, showing the saved value', () => {
    render(withQueries(<RiskPanel />));
    const fields = within(limitsForm()).getAllByRole('textbox') as HTMLInputElement[];
    expect(fields.map((f) => f.name).sort()).toEqual(Object.keys(DEFAULT_RISK_LIMITS).sort());
    for (const f of fields) expect(f.value).toBe(String(DEFAULT_RISK_LIMITS[f.name as keyof RiskLimits]));
    // nothing changed: nothing to save or undo
    expect(button('Save limits').disabled).toBe(true);
    expect(button('Undo changes').disabled).toBe(true);
  });

  it('refuses a count limit that is not a whole number, says why, and sends nothing', async () => {
    render(withQueries(<RiskPanel />));
    const user = userEvent.setup();
    const open = input('Max open orders');
    await user.clear(open);
    await user.type(open, '12.5');
    expect(open.closest('.field, label, div')!.parentElement!.textContent).toContain('a whole number');
    expect(button('Save limits').disabled).toBe(true);
    await user.click(button('Save limits'));
    expect(fake.api.saveRiskLimits).not.toHaveBeenCalled();
  });

  it('saves the typed limits (commas dropped) and shows what main kept', async () => {
    fake.api.saveRiskLimits.mockImplementation(async (limits: RiskLimits) => view({ limits }));
    render(withQueries(<RiskPanel />));
    const user = userEvent.setup();
    await user.clear(input('Max cost / order ($)'));
    await user.type(input('Max cost / order ($)'), '1,500');
    await user.clear(input('Max open orders'));
    await user.type(input('Max open orders'), '40');
    await user.click(button('Save limits'));
    await waitFor(() => expect(fake.api.saveRiskLimits).toHaveBeenCalledTimes(1));
    const sent = fake.api.saveRiskLimits.mock.calls[0]![0] as RiskLimits;
    expect(sent).toEqual({ ...DEFAULT_RISK_LIMITS, maxOrderCost: '1500', maxOpenOrders: 40 });
    await waitFor(() => expect(input('Max cost / order ($)').value).toBe('1500'));
    expect(button('Save limits').disabled).toBe(true);
  });

  it('Undo puts back the saved limits and Defaults the defaults', async () => {
    useRisk.setState({ view: view({ limits: { ...DEFAULT_RISK_LIMITS, maxDailyLoss: '100' } }) });
    render(withQueries(<RiskPanel />));
    const user = userEvent.setup();
    await user.clear(input('Max loss today ($)'));
    await user.type(input('Max loss today ($)'), '900');
    await user.click(button('Undo changes'));
    expect(input('Max loss today ($)').value).toBe('100');
    await user.click(button('Defaults'));
    expect(input('Max loss today ($)').value).toBe(DEFAULT_RISK_LIMITS.maxDailyLoss);
    expect(button('Save limits').disabled).toBe(false);
  });

  it("keeps the form as typed when main refuses the limits", async () => {
    fake.api.saveRiskLimits.mockRejectedValueOnce(Object.assign(new Error('refused'), { kind: 'validation', code: 'invalid_args' }));
    render(withQueries(<RiskPanel />));
    const user = userEvent.setup();
    await user.clear(input('Price collar ($)'));
    await user.type(input('Price collar ($)'), '0.05');
    await user.click(button('Save limits'));
    await waitFor(() => expect(fake.api.saveRiskLimits).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(button('Save limits').disabled).toBe(false));
    expect(input('Price collar ($)').value).toBe('0.05');
  });
});

describe('the Risk panel: audit journal', () => {
  const openAudit = async () => {
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Audit journal' }));
  };
  const journal = () => screen.findByRole('table', { name: 'Order audit journal' }, { timeout: 5000 });

  it('lists the journal newest first with outcome, gate and answer; refusals are marked', async () => {
    fake.api.getAuditLog.mockImplementation(async () => [
      entry(1_760_000_000_000),
      entry(1_760_000_200_000, { outcome: 'refused', gate: 'max contracts / order 1000', answer: 'refused by the risk gate', clientOrderId: null }),
      entry(1_760_000_100_000, { action: 'cancel', gate: 'not gated', answer: 'canceled' }),
    ]);
    render(withQueries(<RiskPanel />));
    await openAudit();
    const table = await journal();
    await within(table).findByText('refused by the risk gate', undefined, { timeout: 5000 });
    const rows = within(table).getAllByRole('row').slice(1);
    const col = (r: HTMLElement, c: string) => r.querySelector(`td[data-col="${c}"]`)?.textContent;
    expect(rows.map((r) => col(r, 'answer'))).toEqual(['refused by the risk gate', 'canceled', 'order o-1760000000000 resting']);
    expect(col(rows[0]!, 'outcome')).toBe('refused');
    expect(col(rows[0]!, 'gate')).toBe('max contracts / order 1000');
    expect(rows[0]!.className).toContain('row-refused');
    expect(rows[1]!.className).not.toContain('row-refused');
    expect(col(rows[2]!, 'asked')).toBe(JSON.stringify({ side: 'bid', price: '0.45', count: '5' }));
  });

  it('asks main for the filtered journal: the market upper-cased, the action, the outcome', async () => {
    render(withQueries(<RiskPanel />));
    await openAudit();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Filter by market' }), 'kxr-1');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by action' }), 'amend');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by outcome' }), 'refused');
    await waitFor(() => expect(fake.api.getAuditLog).toHaveBeenCalledWith({ limit: 2000, ticker: 'KXR-1', action: 'amend', outcome: 'refused' }));
  });

  it('says when nothing was recorded, and shows a failed read with Try again', async () => {
    render(withQueries(<RiskPanel />));
    await openAudit();
    expect(await screen.findByText('No order actions recorded yet for this profile.', undefined, { timeout: 5000 })).toBeTruthy();
    cleanup();
    fake.api.getAuditLog.mockImplementation(async () => {
      throw Object.assign(new Error('the journal file is unreadable'), { kind: 'internal', code: 'audit_unreadable' });
    });
    render(withQueries(<RiskPanel />));
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Audit journal' }));
    const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
    expect(alert.textContent).toContain('audit_unreadable');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
