// @vitest-environment jsdom
// Account, Allocation: the form shows the exchange's target split from its first frame (never an
// empty, valid-looking form whose Save would send no shards over the trader's real split), refuses
// a split that is not whole percentages adding up to 100, and saves exactly what it shows.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { Allocation } from './Allocation';

let fake: FakeTerminal;
interface Split {
  allocations: { exchange_index: number; percent: number }[];
  resting_margin_reservation: 'sum' | 'max';
}
let held: Split;
const sent = () => fake.api.request.mock.calls.map(([i]) => i as { id: string; body?: Split }).filter((i) => i.id === 'setTargetBalanceAllocation');
const percents = () => screen.getAllByRole('textbox', { name: 'Percent' }).map((e) => (e as HTMLInputElement).value);

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.request.mockClear();
  held = { allocations: [{ exchange_index: 0, percent: 60 }, { exchange_index: 1, percent: 40 }], resting_margin_reservation: 'max' };
  fake.reads.getTargetBalanceAllocation = () => structuredClone(held);
  fake.reads.setTargetBalanceAllocation = (input: { body: Split }) => {
    held = structuredClone(input.body);
    return {};
  };
});
afterEach(cleanup);

describe('the target allocation', () => {
  it('shows the exchange split from the first frame the form is on screen: no frame has Save enabled over an empty form', async () => {
    const frames: string[] = [];
    const seen = new MutationObserver(() => {
      const save = screen.queryByRole('button', { name: 'Save allocation' }) as HTMLButtonElement | null;
      if (save) frames.push(`${screen.queryAllByRole('textbox', { name: 'Percent' }).length} rows, Save ${save.disabled ? 'off' : 'on'}`);
    });
    seen.observe(document.body, { subtree: true, childList: true, attributes: true });
    render(withQueries(<Allocation />));
    await screen.findByRole('button', { name: 'Save allocation' });
    await waitFor(() => expect(percents()).toEqual(['60', '40']));
    seen.disconnect();
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.filter((f) => f.startsWith('0 rows')), frames.join('; ')).toEqual([]);
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('max');
  });

  it('a refetch that reads the same split keeps what the trader is typing; one that reads a new split starts the form from it', async () => {
    const qc = createQueryClient();
    render(<QueryClientProvider client={qc}><Allocation /></QueryClientProvider>);
    await waitFor(() => expect(percents()).toEqual(['60', '40']));
    const user = userEvent.setup();
    const first = screen.getAllByRole('textbox', { name: 'Percent' })[0]!;
    await user.clear(first);
    await user.type(first, '55');
    const reads = () => fake.api.request.mock.calls.filter(([i]) => (i as { id: string }).id === 'getTargetBalanceAllocation').length;
    const before = reads();
    await act(() => qc.invalidateQueries());
    await waitFor(() => expect(reads()).toBe(before + 1));
    expect(percents()).toEqual(['55', '40']);
    held = { allocations: [{ exchange_index: 2, percent: 100 }], resting_margin_reservation: 'sum' };
    await act(() => qc.invalidateQueries());
    await waitFor(() => expect(percents()).toEqual(['100']));
  });

  it('refuses a split that does not add up to 100, saves exactly what it shows, and shows the answer the exchange then holds', async () => {
    render(withQueries(<Allocation />));
    const user = userEvent.setup();
    await waitFor(() => expect(percents()).toEqual(['60', '40']));
    const save = screen.getByRole('button', { name: 'Save allocation' }) as HTMLButtonElement;
    const [first, second] = screen.getAllByRole('textbox', { name: 'Percent' });
    await user.clear(first!);
    await user.type(first!, '70');
    expect(screen.getByText('Total 110%')).toBeTruthy();
    expect(save.disabled).toBe(true);
    await user.clear(second!);
    await user.type(second!, '30');
    expect(save.disabled).toBe(false);
    await user.selectOptions(screen.getByRole('combobox'), 'sum');
    await user.click(save);
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]!.body).toEqual({ allocations: [{ exchange_index: 0, percent: 70 }, { exchange_index: 1, percent: 30 }], resting_margin_reservation: 'sum' });
    await waitFor(() => expect(fake.api.request.mock.calls.filter(([i]) => (i as { id: string }).id === 'getTargetBalanceAllocation').length).toBeGreaterThan(1));
    expect(percents()).toEqual(['70', '30']);
  });
});
