// The one command-line parser of the exchange's and the host's CLIs (src-exchange/cli.ts,
// src-main/host/cli.ts). Pure, so it lives here, where both processes may import it (node:util's
// parseArgs is a Node API, which src-shared never imports); it reads like parseArgs in strict
// mode: `--name value` or `--name=value`, booleans take no value, no positionals, and every flag
// must be declared. A whole-number option carries its range and says it in its error. Any
// refusal throws CliArgError, whose message names the option; the CLI prints it with its usage.

export class CliArgError extends Error {}

export type CliOption =
  | { type: 'boolean' }
  | { type: 'string'; default?: string }
  /** a whole number from min to max; `what` says what it counts, for the error */
  | { type: 'int'; min: number; max: number; default?: number; what?: string };

type ValueOf<O extends CliOption> = O extends { type: 'boolean' }
  ? boolean
  : O extends { type: 'string' }
    ? O extends { default: string }
      ? string
      : string | undefined
    : O extends { default: number }
      ? number
      : number | undefined;

/** The simulation's options, the same on both CLIs (the host passes them on to its exchange). */
export const SIM_OPTIONS = {
  'no-sim': { type: 'boolean' },
  'sim-rate': { type: 'int', min: 0, max: 20_000, what: 'commands per second' },
  'sim-market-minutes': { type: 'int', min: 1, max: 1440, what: 'minutes a market the simulation adds stays open' },
  'sim-pause-minutes': { type: 'int', min: 0, max: 1440, what: "mean minutes between the simulation's pauses of a quoted market (0: never)" },
} as const satisfies Record<string, CliOption>;

export type CliValues<S extends Record<string, CliOption>> = { [K in keyof S]: ValueOf<S[K]> };

/** The simulation's settings an exchange is started with (each absent one: the exchange's default). */
export interface SimSettings {
  /** false: no simulation */
  sim?: boolean;
  /** the simulation's commands per second */
  simRate?: number;
  /** markets the simulation adds close after this many minutes and settle soon after */
  simMarketMinutes?: number;
  /** mean minutes between the simulation's pauses of a quoted market, 0 never */
  simPauseMinutes?: number;
}

/** The settings that SIM_OPTIONS parsed to (the host's CLI, passing them on to its exchange). */
export function simSettingsOf(o: CliValues<typeof SIM_OPTIONS>): SimSettings {
  return { sim: !o['no-sim'], simRate: o['sim-rate'], simMarketMinutes: o['sim-market-minutes'], simPauseMinutes: o['sim-pause-minutes'] };
}

/** The exchange CLI's arguments (SIM_OPTIONS) for these settings, none for an absent one. */
export function simArgs(s: SimSettings): string[] {
  const out = s.sim === false ? ['--no-sim'] : [];
  const valued = [
    ['--sim-rate', s.simRate],
    ['--sim-market-minutes', s.simMarketMinutes],
    ['--sim-pause-minutes', s.simPauseMinutes],
  ] as const;
  for (const [flag, value] of valued) if (value !== undefined) out.push(flag, String(value));
  return out;
}

function intValue(name: string, o: Extract<CliOption, { type: 'int' }>, text: string): number {
  const n = /^-?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < o.min || n > o.max) throw new CliArgError(`--${name} must be a whole number${o.what ? ` of ${o.what}` : ''} from ${o.min} to ${o.max}, got ${text}`);
  return n;
}

/** Parses argv (without the node and script paths) against the declared options. */
export function parseCliArgs<const S extends Record<string, CliOption>>(argv: readonly string[], spec: S): CliValues<S> {
  const given = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg === '--') throw new CliArgError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const o = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!o) throw new CliArgError(`unknown option '--${name}'`);
    if (o.type === 'boolean') {
      if (eq >= 0) throw new CliArgError(`option '--${name}' takes no value`);
      given.set(name, true);
      continue;
    }
    const text = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    // a value that starts with '-' reads as another option (as node's parseArgs has it)
    if (text === undefined || (eq < 0 && text.startsWith('-'))) throw new CliArgError(`option '--${name}' needs a value${text === undefined ? '' : `, got '${text}', which reads as an option (write --${name}=${text})`}`);
    given.set(name, text);
  }
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [name, o] of Object.entries(spec)) {
    const v = given.get(name);
    if (o.type === 'boolean') out[name] = v === true;
    else if (v === undefined) out[name] = o.default;
    else out[name] = o.type === 'int' ? intValue(name, o, v as string) : v;
  }
  return out as CliValues<S>;
}
