// @vitest-environment jsdom
// A multi-cancel (the blotter's selection, the ladder's cancel my bids) shows what main answered
// batch by batch: all canceled, or how many of how many and which failed and why.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installFakeTerminal, type FakeTerminal } from '../test/fake-terminal';
import { useNotices } from '../stores/notices';
import { cancelOrders } from './trade';
import type { BatchCancelResult } from '../../src-shared/ipc/batch-cancel';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';
const orders = ['o-1', 'o-2', 'o-3'].map((order_id) => ({ order_id, ticker: T, subaccount: 0 }));

beforeAll(() => {
  fake = installFakeTerminal();
});
beforeEach(() => {
  useNotices.setState({ toasts: [] });
  fake.api.batchCancel.mockReset();
});

describe('cancelOrders of several orders', () => {
  it('sends one batchCancel and says all were canceled when all were', async () => {
    const all: BatchCancelResult = { of: 3, canceled: 3, batches: [{ of: 3, canceled: 3, failed: [] }], failed: [] };
    fake.api.batchCancel.mockResolvedValue(all);
    await cancelOrders(orders, 'ladder');
    expect(fake.api.batchCancel).toHaveBeenCalledTimes(1);
    expect(fake.api.batchCancel).toHaveBeenCalledWith({ orders: orders.map(({ order_id }) => ({ order_id, ticker: T })), origin: 'ladder' });
    expect(useNotices.getState().toasts.map((t) => [t.level, t.title])).toEqual([['info', 'Canceled 3 orders']]);
  });

  it('says how many of how many were canceled, and which failed and why, when some were not', async () => {
    const failed = { order_id: 'o-3', code: 'not_found', message: 'order not found' };
    const some: BatchCancelResult = { of: 3, canceled: 2, batches: [{ of: 2, canceled: 2, failed: [] }, { of: 1, canceled: 0, failed: [failed] }], failed: [failed] };
    fake.api.batchCancel.mockResolvedValue(some);
    await cancelOrders(orders, 'blotter');
    const [toast] = useNotices.getState().toasts;
    expect(toast?.level).toBe('error');
    expect(toast?.title).toBe('Canceled 2 of 3 orders');
    expect(toast?.body).toContain('o-3');
    expect(toast?.body).toContain('not_found: order not found');
    expect(toast?.body).toContain('batch 2: 0 of 1');
  });
});
