// The door's table is derived from the contract's channels: every declared method reaches the
// same-named method of its channel's service (bound to it), a service that lacks one is refused
// (by the compiler through ChannelImpl, and at start by serveChannels), and a service method the
// contract does not declare is not reachable through the door. The `@ts-expect-error` lines are
// checked by `tsc -p tsconfig.json` (this file is in the project): if the compiler stopped
// refusing them, the directive itself would fail the type check.
import { describe, expect, it } from 'vitest';
import { channels, METHOD_NAMES, methodChannel, type ChannelImpl, type ChannelImpls, type ChannelName, type ReplayView } from '../../src-shared/ipc/contract';
import { createDoor, serveChannels } from './door';

type Call = { channel: string; method: string; args: unknown[]; self: unknown };

/** One object per channel with exactly its declared methods, each recording its calls and `this`. */
function recordingImpls(calls: Call[]): Record<ChannelName, Record<string, unknown>> {
  const impls = {} as Record<ChannelName, Record<string, unknown>>;
  for (const [channel, methods] of Object.entries(channels) as [ChannelName, Record<string, unknown>][]) {
    const service: Record<string, unknown> = {};
    for (const name of Object.keys(methods)) {
      service[name] = function (this: unknown, ...args: unknown[]) {
        calls.push({ channel, method: name, args, self: this });
        return Promise.resolve(`${channel}.${name}`);
      };
    }
    impls[channel] = service;
  }
  return impls;
}

describe('serveChannels: the door table derived from the channels', () => {
  it('sends every declared method to its own channel service, with that service as `this`', async () => {
    const calls: Call[] = [];
    const impls = recordingImpls(calls);
    const table = serveChannels(impls as unknown as ChannelImpls);
    expect(Object.keys(table).sort()).toEqual([...METHOD_NAMES].sort());
    for (const name of METHOD_NAMES) {
      const fn = table[name] as (...a: unknown[]) => Promise<unknown>;
      await expect(fn('a', 1)).resolves.toBe(`${methodChannel[name]}.${name}`);
      const last = calls.at(-1)!;
      expect(last).toMatchObject({ channel: methodChannel[name], method: name, args: ['a', 1] });
      expect(last.self).toBe(impls[methodChannel[name]]);
    }
    expect(calls).toHaveLength(METHOD_NAMES.length);
  });

  it('refuses a service that lacks a method its channel declares, naming both', () => {
    const impls = recordingImpls([]);
    Reflect.deleteProperty(impls.replay, 'stopReplay');
    expect(() => serveChannels(impls as unknown as ChannelImpls)).toThrow('the replay service does not implement stopReplay');
  });

  it('a service method the contract does not declare is not reachable through the door', async () => {
    const impls = recordingImpls([]);
    let reached = false;
    impls.replay.secretReplayReset = () => {
      reached = true;
      return Promise.resolve();
    };
    const door = createDoor(serveChannels(impls as unknown as ChannelImpls));
    expect(await door('secretReplayReset', [])).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('unknown method') } });
    expect(reached).toBe(false);
    // and a declared one goes through, parsed
    expect(await door('getReplay', [])).toEqual({ ok: true, value: 'replay.getReplay' });
  });
});

// ---- compile-time: what the type check refuses --------------------------------------------

const view = {} as ReplayView;

// @ts-expect-error a service missing a method its channel declares (stopReplay) does not compile
export class ReplayMissingOne implements ChannelImpl<'replay'> {
  getReplay = () => Promise.resolve(view);
  startReplay = () => Promise.resolve(view);
  replayControl = () => Promise.resolve(view);
}

export const appWithExtra: ChannelImpl<'app'> = {
  getAppState: () => Promise.reject(new Error('not here')),
  activateProfile: () => Promise.reject(new Error('not here')),
  deleteProfile: () => Promise.resolve(),
  // @ts-expect-error a channel implementation with a method the contract does not declare does not compile
  resetEverything: () => Promise.resolve(),
};

export const replayWrongArgs: ChannelImpl<'replay'> = {
  getReplay: () => Promise.resolve(view),
  // @ts-expect-error a method's parameters are its parsed arguments, not whatever the service likes
  startReplay: (_input: number) => Promise.resolve(view),
  replayControl: () => Promise.resolve(view),
  stopReplay: () => Promise.resolve(view),
};

export const replayWrongResult: ChannelImpl<'replay'> = {
  // @ts-expect-error a method answers its declared result type
  getReplay: () => Promise.resolve('not a view'),
  startReplay: () => Promise.resolve(view),
  replayControl: () => Promise.resolve(view),
  stopReplay: () => Promise.resolve(view),
};

export function serveOneChannel(): unknown {
  // @ts-expect-error the door's table needs every channel
  return serveChannels({ app: appWithExtra });
}
