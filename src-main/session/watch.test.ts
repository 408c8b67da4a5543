import { describe, expect, it } from 'vitest';
import { MarketWatch } from './watch';

/** A stand-in for the stream's subscription calls: records them, and refuses a want while `refuse` is set. */
function recordingStream() {
  const calls: string[] = [];
  const s = {
    refuse: false,
    calls,
    async want(channel: string, markets: string[] = []) {
      calls.push(`want ${channel} ${markets.join(',')}`);
      if (s.refuse) throw new Error('refused');
    },
    async unwant(channel: string, markets: string[] = []) {
      calls.push(`unwant ${channel} ${markets.join(',')}`);
    },
  };
  return s;
}

describe('the markets streamed in full', () => {
  it('subscribes what is new, unsubscribes what nobody wants, and keeps what a tool pins', async () => {
    const s = recordingStream();
    const w = new MarketWatch(s);
    await w.watchMarkets(['A', 'B']);
    await w.pin('alerts', ['B', 'C']);
    expect(s.calls.splice(0)).toEqual(['want orderbook_delta A,B', 'want trade A,B', 'want orderbook_delta C', 'want trade C']);
    await w.watchMarkets(['A']);
    expect(s.calls.splice(0)).toEqual([]); // B stays: alerts pin it
    await w.watchMarkets([]);
    expect(s.calls.splice(0)).toEqual(['unwant orderbook_delta A', 'unwant trade A']);
    await w.pin('alerts', []);
    expect(s.calls.splice(0)).toEqual(['unwant orderbook_delta B,C', 'unwant trade B,C']);
  });

  it('asks again on the next watch for markets whose subscription was refused', async () => {
    const s = recordingStream();
    const w = new MarketWatch(s);
    s.refuse = true;
    await expect(w.watchMarkets(['A'])).rejects.toThrow('refused');
    s.refuse = false;
    s.calls.length = 0;
    await w.watchMarkets(['A']);
    expect(s.calls).toEqual(['want orderbook_delta A', 'want trade A']);
  });
});
