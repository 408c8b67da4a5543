// @vitest-environment jsdom
// The Recordings panel: lists what main recorded (size, markets, time range), starts a recording
// of the named markets, stops it, and exports one.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import type { RecordingView, RecordingsView } from '../../../src-shared/ipc/contract';
import { RecordingsPanel, fmtBytes, parseMarkets } from './RecordingsPanel';

let fake: FakeTerminal;
const done: RecordingView = {
  id: 'rec-1',
  name: 'morning',
  markets: ['KX-A'],
  startedAt: Date.UTC(2026, 10, 26, 9),
  stoppedAt: Date.UTC(2026, 10, 26, 10),
  active: false,
  bytes: 3 * 1024 * 1024,
  rows: 123_456,
  deltas: 120_000,
  trades: 345,
  recordedMarkets: ['KX-A'],
  firstMs: Date.UTC(2026, 10, 26, 9),
  lastMs: Date.UTC(2026, 10, 26, 10),
  problem: null,
};
const idle: RecordingsView = { recordings: [done], settings: { retentionDays: 30 } };
const live: RecordingsView = { recordings: [{ ...done, id: 'rec-2', name: 'now', active: true, stoppedAt: null, rows: 10, bytes: 2048 }, done], settings: { retentionDays: 30 } };

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  for (const m of ['getRecordings', 'startRecording', 'stopRecording', 'exportRecording'] as const) fake.api[m].mockReset();
  fake.api.getRecordings.mockResolvedValue(idle);
});
afterEach(cleanup);

describe('the Recordings panel', () => {
  it('shows the saved retention; a field cleared stays empty (Save off) instead of refilling under the typing; the typed days are saved', async () => {
    fake.api.saveRecorderSettings.mockReset();
    fake.api.saveRecorderSettings.mockResolvedValue({ ...idle, settings: { retentionDays: 7 } });
    render(withQueries(<RecordingsPanel />));
    const field = (await screen.findByDisplayValue('30')) as HTMLInputElement;
    expect(field.getAttribute('aria-label')).toBe('Retention days');
    const user = userEvent.setup();
    await user.clear(field);
    expect(field.value).toBe('');
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.type(field, '7');
    expect(field.value).toBe('7');
    expect(save.disabled).toBe(false);
    await user.click(save);
    expect(fake.api.saveRecorderSettings).toHaveBeenCalledWith({ retentionDays: 7 });
  });

  it('lists a recording with its size, events and markets', async () => {
    render(withQueries(<RecordingsPanel />));
    const row = (await screen.findByText('morning')).closest('tr')!;
    expect(row.textContent).toContain('3.0 MiB');
    expect(row.textContent).toContain('123,456');
    expect(row.textContent).toContain('KX-A');
    expect(row.textContent).toContain('1h 0m');
  });

  it('starts a recording of the named markets and stops it', async () => {
    // main lists the recording as running from the start on: the panel's poll must not see it
    // stopped (set when main starts it, not before the click: a poll landing between the two
    // showed the running recording and took the Start button from under the click)
    fake.api.startRecording.mockImplementation(async () => {
      fake.api.getRecordings.mockResolvedValue(live);
      return live;
    });
    render(withQueries(<RecordingsPanel />));
    const user = userEvent.setup();
    await screen.findByText('morning');
    await user.type(screen.getByLabelText('Recording markets'), 'KX-A, KX-B KX-A');
    await user.click(screen.getByRole('button', { name: 'Start recording' }));
    expect(fake.api.startRecording).toHaveBeenCalledWith({ markets: ['KX-A', 'KX-B'] });
    expect((await screen.findByTestId('recording-now')).textContent).toContain('now');
    fake.api.stopRecording.mockImplementation(async () => {
      fake.api.getRecordings.mockResolvedValue(idle);
      return idle;
    });
    await user.click(screen.getByRole('button', { name: 'Stop recording' }));
    expect(fake.api.stopRecording).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByTestId('recording-now')).toBeNull());
  });

  it('exports a recording as Parquet', async () => {
    fake.api.exportRecording.mockResolvedValue({ path: '/data/recordings/exports/rec-1.parquet' });
    render(withQueries(<RecordingsPanel />));
    const user = userEvent.setup();
    const row = (await screen.findByText('morning')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Parquet' }));
    expect(fake.api.exportRecording).toHaveBeenCalledWith({ id: 'rec-1', format: 'parquet' });
  });

  it('formats sizes and reads market lists', () => {
    expect(fmtBytes(512)).toBe('512 B');
    expect(fmtBytes(1536)).toBe('1.5 KiB');
    expect(parseMarkets(' A,B  C,,A ')).toEqual(['A', 'B', 'C']);
    expect(parseMarkets('  ')).toEqual([]);
  });
});
