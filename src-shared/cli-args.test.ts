import { describe, expect, it } from 'vitest';
import { CliArgError, SIM_OPTIONS, parseCliArgs, simArgs, simSettingsOf, type SimSettings } from './cli-args';

const SPEC = {
  port: { type: 'int', min: 0, max: 65535, default: 0 },
  'sim-rate': { type: 'int', min: 0, max: 20_000, what: 'commands per second' },
  'data-dir': { type: 'string', default: '.data' },
  replay: { type: 'string' },
  'no-sim': { type: 'boolean' },
} as const;

describe('parseCliArgs', () => {
  it('reads --name value, --name=value and booleans, and fills the defaults', () => {
    expect(parseCliArgs(['--port', '8080', '--data-dir=/tmp/x', '--no-sim'], SPEC)).toEqual({ port: 8080, 'sim-rate': undefined, 'data-dir': '/tmp/x', replay: undefined, 'no-sim': true });
    expect(parseCliArgs([], SPEC)).toEqual({ port: 0, 'sim-rate': undefined, 'data-dir': '.data', replay: undefined, 'no-sim': false });
    expect(parseCliArgs(['--sim-rate=0'], SPEC)['sim-rate']).toBe(0);
  });

  it.each([
    [['--bogus'], "unknown option '--bogus'"],
    [['stray'], "unexpected argument 'stray'"],
    [['--no-sim=yes'], "option '--no-sim' takes no value"],
    [['--replay'], "option '--replay' needs a value"],
    [['--sim-rate', '-5'], "option '--sim-rate' needs a value, got '-5'"],
    [['--sim-rate', '2.5'], '--sim-rate must be a whole number of commands per second from 0 to 20000, got 2.5'],
    [['--port', '70000'], '--port must be a whole number from 0 to 65535, got 70000'],
    [['--port', ''], '--port must be a whole number from 0 to 65535, got '],
    [['--toString'], "unknown option '--toString'"],
  ])('refuses %j, naming the option', (argv, message) => {
    expect(() => parseCliArgs(argv, SPEC)).toThrow(CliArgError);
    expect(() => parseCliArgs(argv, SPEC)).toThrow(message);
  });
});

describe('the simulation settings, as arguments and back', () => {
  it('simArgs writes what SIM_OPTIONS reads, and nothing for an absent setting', () => {
    const cases: SimSettings[] = [{}, { sim: false }, { sim: true, simRate: 0 }, { simRate: 1500, simMarketMinutes: 2, simPauseMinutes: 0 }];
    for (const s of cases) {
      const back = simSettingsOf(parseCliArgs(simArgs(s), SIM_OPTIONS));
      expect(back, JSON.stringify(s)).toEqual({ sim: s.sim !== false, simRate: s.simRate, simMarketMinutes: s.simMarketMinutes, simPauseMinutes: s.simPauseMinutes });
    }
    expect(simArgs({})).toEqual([]);
    expect(simArgs({ sim: true, simPauseMinutes: 0 })).toEqual(['--sim-pause-minutes', '0']);
  });
});
