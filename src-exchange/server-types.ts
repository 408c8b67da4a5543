// What the server and the parts it plugs in agree on: its options, the activities it starts after
// listen (the simulation, the catalog clock), the attachers it gives its HTTP server (the stream)
// and the bootstrap steps a fresh data dir runs. Types only, so a part names them without
// importing the server (or the bootstrap) that runs it.
import type { Server } from 'node:http';
import type { ProvisionedAccount } from '../src-shared/credentials';
import type { Services } from './core/services';
import type { AccountPlan, KeyPair } from './provision';
import type { SimOptions } from './sim/options';
import type { Speed } from './replay/player';
import type { Tape } from './replay/tape';

export interface ExchangeServerOptions {
  dataDir: string;
  port?: number;
  seed?: number;
  /** run the simulated participants (default true) */
  sim?: boolean;
  rateLimits?: boolean;
  accounts?: readonly AccountPlan[];
  /** key pairs for the provisioned accounts, in order, instead of generating them (tests; default: EXCHANGE_PROVISION_KEYS, see provision.ts) */
  provisionKeys?: readonly KeyPair[];
  clock?: () => number;
  snapshotEvery?: number;
  /** simulation tuning (rate, tick, lifecycle pace); see sim/options.ts */
  simOptions?: Partial<SimOptions>;
  /** the FIX acceptor's port on 127.0.0.1 (default 0: any free one; see src-exchange/fix) */
  fixPort?: number;
  /** replay a recording into the books instead of simulating (src-exchange/replay/exchange-replay.ts); the sim stays off */
  replay?: { tape: Tape; speed?: Speed; play?: boolean };
}

export type ServerAttacher = (server: Server, svc: Services) => { close(): Promise<void> | void };

/** Something the server runs while it is up (the simulation, the catalog clock); stopped on close. */
export type Activity = (svc: Services, opts: ExchangeServerOptions) => { stop(): Promise<void> | void };

export interface BootstrapContext {
  svc: Services;
  accounts: ProvisionedAccount[];
}

export type BootstrapStep = (ctx: BootstrapContext) => Promise<void>;
