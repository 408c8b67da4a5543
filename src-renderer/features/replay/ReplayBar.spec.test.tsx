// @vitest-environment jsdom
// The replay bar: hidden unless the embedded profile is active and a recording plays in its
// exchange; play, speed, seek and stop go to main as replayControl/stopReplay; keyboard usable.
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, type FakeTerminal } from '../../test/fake-terminal';
import type { AppState, ReplayView } from '../../../src-shared/ipc/contract';
import { useSession } from '../../stores/session';
import { showReplay } from '../../stores/replay';
import { IDLE_POLL_MS, ReplayBar } from './ReplayBar';

let fake: FakeTerminal;
const first = Date.UTC(2026, 10, 26, 9);
const paused: ReplayView = { active: true, recordingId: 'rec-1', playing: false, speed: 10, positionMs: first, firstMs: first, lastMs: first + 120_000, row: 10, rows: 5000, done: false, skippedMarkets: [], subaccount: 1 };

function activate(kind: 'embedded' | 'demo') {
  useSession.setState({ app: { profiles: [{ id: 'p', kind, name: 'P' }], activeProfileId: 'p' } as unknown as AppState });
}

beforeAll(() => {
  fake = installFakeTerminal();
});
beforeEach(() => {
  for (const m of ['getReplay', 'replayControl', 'stopReplay'] as const) fake.api[m].mockReset();
  fake.api.getReplay.mockResolvedValue(paused);
});
afterEach(cleanup);

describe('the replay bar', () => {
  it('is hidden when no replay plays, or when the active profile is not the embedded one', async () => {
    activate('demo');
    render(<ReplayBar />);
    expect(screen.queryByTestId('replay-bar')).toBeNull();
    expect(fake.api.getReplay).not.toHaveBeenCalled();
    cleanup();
    activate('embedded');
    fake.api.getReplay.mockResolvedValue({ active: false });
    render(<ReplayBar />);
    await waitFor(() => expect(fake.api.getReplay).toHaveBeenCalled());
    expect(screen.queryByTestId('replay-bar')).toBeNull();
  });

  it('plays, changes speed, seeks and stops through main, by keyboard', async () => {
    activate('embedded');
    render(<ReplayBar />);
    const user = userEvent.setup();
    await screen.findByTestId('replay-bar');
    expect(screen.getByTestId('replay-rows').textContent).toContain('10 / 5,000');
    fake.api.replayControl.mockResolvedValue({ ...paused, playing: true });
    screen.getByRole('button', { name: 'Play replay' }).focus();
    await user.keyboard(' ');
    expect(fake.api.replayControl).toHaveBeenCalledWith({ action: 'play' });
    await user.selectOptions(screen.getByLabelText('Replay speed'), '100');
    expect(fake.api.replayControl).toHaveBeenCalledWith({ action: 'speed', speed: 100 });
    await user.selectOptions(screen.getByLabelText('Replay speed'), 'max');
    expect(fake.api.replayControl).toHaveBeenCalledWith({ action: 'speed', speed: 'max' });
    const slider = screen.getByLabelText('Replay position');
    fireEvent.change(slider, { target: { value: String(first + 60_000) } });
    fireEvent.keyUp(slider, { key: 'ArrowRight' });
    expect(fake.api.replayControl).toHaveBeenCalledWith({ action: 'seek', tsMs: first + 60_000 });
    fake.api.stopReplay.mockResolvedValue({ active: false });
    await user.click(screen.getByRole('button', { name: 'Stop replay' }));
    expect(fake.api.stopReplay).toHaveBeenCalled();
  });

  it('reads main every few seconds while none plays (not twice a second all day); one this page starts shows at once, then its position every 500 ms', async () => {
    vi.useFakeTimers();
    try {
      activate('embedded');
      fake.api.getReplay.mockResolvedValue({ active: false });
      render(<ReplayBar />);
      await act(async () => vi.advanceTimersByTimeAsync(0));
      expect(fake.api.getReplay).toHaveBeenCalledTimes(1);
      await act(async () => vi.advanceTimersByTimeAsync(IDLE_POLL_MS - 100));
      expect(fake.api.getReplay).toHaveBeenCalledTimes(1);
      await act(async () => vi.advanceTimersByTimeAsync(100));
      expect(fake.api.getReplay).toHaveBeenCalledTimes(2);
      // the Recordings panel started one: the bar shows it without a read
      fake.api.getReplay.mockResolvedValue(paused);
      act(() => showReplay(paused));
      expect(screen.getByTestId('replay-bar')).toBeTruthy();
      expect(fake.api.getReplay).toHaveBeenCalledTimes(2);
      await act(async () => vi.advanceTimersByTimeAsync(500));
      expect(fake.api.getReplay).toHaveBeenCalledTimes(3);
      await act(async () => vi.advanceTimersByTimeAsync(1000));
      expect(fake.api.getReplay).toHaveBeenCalledTimes(5);
    } finally {
      vi.useRealTimers();
    }
  });
});
