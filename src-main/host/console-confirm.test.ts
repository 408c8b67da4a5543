// The console code's rules, on a clock the test moves: one code per question, printed and never
// in the refusal, valid two minutes and once; a wrong code spends it; after MAX_WRONG wrong codes
// nothing is confirmed until a restart.
import { describe, expect, it } from 'vitest';
import { CODE_TTL_MS, ConsoleConfirm, MAX_WRONG } from './console-confirm';
import { StateError } from '../base/errors';

function setup() {
  const printed: string[] = [];
  let t = 1_000_000;
  const c = new ConsoleConfirm((l) => printed.push(l), () => t);
  const lastCode = () => [...printed].reverse().map((l) => /type this code in the page: (\d{6})/.exec(l)?.[1]).find(Boolean)!;
  const q = (code?: string) => ({ title: 'Release the kill switch?', message: 'Orders will be accepted again.', allow: 'Release', code });
  return { c, printed, lastCode, q, advance: (ms: number) => (t += ms) };
}

async function refusal(p: Promise<boolean>): Promise<StateError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StateError);
  expect((e as StateError).code).toBe('console_code_required');
  return e as StateError;
}

describe('ConsoleConfirm', () => {
  it('prints a code when asked without one, never puts it in the refusal, and takes it once', async () => {
    const { c, lastCode, q } = setup();
    const e = await refusal(c.ask(q()));
    const code = lastCode();
    expect(code).toMatch(/^\d{6}$/);
    expect(e.message).not.toContain(code);
    expect(await c.ask(q(code))).toBe(true);
    await refusal(c.ask(q(code)));
  });

  it('keeps the same code while it lives, and a code for one question does not answer another', async () => {
    const { c, printed, lastCode, q } = setup();
    await refusal(c.ask(q()));
    const code = lastCode();
    const lines = printed.length;
    await refusal(c.ask(q()));
    expect(printed.length).toBe(lines);
    await refusal(c.ask({ title: 'Loosen the risk limits?', message: 'Loosen x?', allow: 'Loosen', code }));
  });

  it('binds a code to the exact change it was printed for: the same question with another change is refused, and spends it', async () => {
    const { c, printed, lastCode } = setup();
    const ask = (change: string, code?: string) => ({ title: 'Loosen the risk limits?', message: 'Loosen maxOpenOrdersPerMarket 50 -> 51?', allow: 'Loosen', code, change });
    const small = 'risk limits of profile p: maxOpenOrdersPerMarket 50 -> 51';
    const all = 'risk limits of profile p: every limit to its maximum';
    await refusal(c.ask(ask(small)));
    const code = lastCode();
    // the console says what the code confirms
    expect(printed.some((l) => l.includes(small))).toBe(true);
    const e = await refusal(c.ask(ask(all, code)));
    expect(e.message).toMatch(/not printed for this change/);
    // spent: not even the change it was printed for takes it now
    await refusal(c.ask(ask(small, code)));
    const fresh = lastCode();
    expect(await c.ask(ask(small, fresh))).toBe(true);
    // once: the same change again needs its own code
    await refusal(c.ask(ask(small, fresh)));
  });

  it('refuses an expired code', async () => {
    const { c, lastCode, q, advance } = setup();
    await refusal(c.ask(q()));
    const code = lastCode();
    advance(CODE_TTL_MS);
    await refusal(c.ask(q(code)));
  });

  it(`stops confirming after ${MAX_WRONG} wrong codes, even the right one`, async () => {
    const { c, lastCode, q } = setup();
    await refusal(c.ask(q()));
    for (let i = 0; i < MAX_WRONG; i++) {
      const right = lastCode();
      await refusal(c.ask(q(right === '999999' ? '999998' : '999999')));
    }
    const e = await refusal(c.ask(q(lastCode())));
    expect(e.message).toMatch(/until it is restarted/);
  });
});
