// @vitest-environment jsdom
// Export to Parquet with its progress: while main's export runs, the Recordings panel reads the
// list again and shows each export under way with DuckDB's progress; when it ends the bar goes.
import { afterEach, beforeAll, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import type { RecordingView, RecordingsView } from '../../../src-shared/ipc/contract';
import { RecordingsPanel } from './RecordingsPanel';

let fake: FakeTerminal;
const done: RecordingView = { id: 'rec-1', name: 'morning', markets: ['KX-A'], startedAt: 1, stoppedAt: 2, active: false, bytes: 1024, rows: 10, deltas: 9, trades: 1, recordedMarkets: ['KX-A'], firstMs: 1, lastMs: 2, problem: null };
const idle: RecordingsView = { recordings: [done], settings: { retentionDays: 30 } };

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
afterEach(cleanup);

it('shows an export to Parquet under way with its progress, and drops it when done', async () => {
  let finish: (v: { path: string }) => void = () => undefined;
  let pct = 0;
  let running = false;
  fake.api.getRecordings.mockImplementation(async () => (running ? { ...idle, exports: [{ id: 'rec-1', format: 'parquet', pct }] } : idle));
  fake.api.exportRecording.mockImplementation(() => {
    running = true;
    return new Promise((r) => (finish = r));
  });
  render(withQueries(<RecordingsPanel />));
  const user = userEvent.setup();
  const row = await screen.findByRole('row', { name: /morning/ });
  await user.click(within(row).getByRole('button', { name: 'Parquet' }));
  expect(fake.api.exportRecording).toHaveBeenCalledWith({ id: 'rec-1', format: 'parquet' });
  const bar = await screen.findByRole('progressbar', { name: 'Export of rec-1 to parquet' });
  expect(screen.getByTestId('export-progress').textContent).toContain('Exporting morning to Parquet');
  pct = 42;
  await waitFor(() => expect(bar.getAttribute('value')).toBe('42'), { timeout: 10_000 });
  running = false;
  finish({ path: '/data/recordings/exports/rec-1.parquet' });
  await waitFor(() => expect(screen.queryByTestId('export-progress')).toBeNull(), { timeout: 10_000 });
});
