// The published WebSocket examples through the terminal's own frame path (FrameIngest over a
// BookMachine), in the order a session would see them: every one is taken, books come out of the
// snapshot with the published levels, and other channels pass through without touching a book.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../src-shared/wire/fixtures';
import { BookMachine } from './books';
import { diffAgainstRest } from './book';
import { FrameIngest } from './frame';

const dir = path.resolve(__dirname, '../../src-shared/wire/fixtures/ws');
const load = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Omit<Fixture, 'file'>;
const text = (file: string) => JSON.stringify(load(file).example);

describe('published examples through FrameIngest', () => {
  it('the orderbook snapshot builds the published book (whole and fresh)', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(JSON.stringify({ id: 1, type: 'subscribed', msg: { channel: 'orderbook_delta', sid: 2 } }));
    const r = ing.ingest(text('orderbook_snapshot.json'));
    // The example opens its sid at seq 2; the notes count a sid's frames from 1, so the missing
    // first frame is a gap and the sid is asked to resync. The snapshot's own book is whole.
    expect(r.actions).toEqual([expect.objectContaining({ kind: 'resync', sid: 2, reason: expect.stringMatching(/expected 1, got 2/) })]);
    expect(r.touched).toBe('FED-23DEC-T3.00');
    const book = ing.machine.book('FED-23DEC-T3.00')!;
    expect(book.stale).toBe(false);
    expect(
      diffAgainstRest(book, {
        yes_dollars: [['0.0800', '300.00'], ['0.2200', '333.00']],
        no_dollars: [['0.5400', '20.00'], ['0.5600', '146.00']],
      }),
    ).toEqual([]);
  });

  it('the published delta (a level the snapshot does not hold, taken below zero) asks for a resync instead of a wrong book', () => {
    const ing = new FrameIngest(new BookMachine());
    ing.ingest(JSON.stringify({ id: 1, type: 'subscribed', msg: { channel: 'orderbook_delta', sid: 2 } }));
    ing.ingest(text('orderbook_snapshot.json'));
    const r = ing.ingest(text('orderbook_delta.json'));
    // the delta itself is well formed: read, not "malformed"
    expect(r.message?.type).toBe('orderbook_delta');
    expect(r.actions.some((a) => a.kind === 'resync')).toBe(true);
  });

  it.each(readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('orderbook_')))('%s passes through without touching a book or asking for anything', (file) => {
    const ing = new FrameIngest(new BookMachine());
    const r = ing.ingest(text(file));
    expect(r.message, file).toBeDefined();
    expect(r.touched).toBeUndefined();
    expect(r.actions).toEqual([]);
  });
});
