// A profile's risk limits and kill-switch state in <dataDir>/risk/<profile>.json, so both
// survive a restart. A file that cannot be read never crashes the terminal and never loosens
// anything: the limits fall back to their defaults and the kill switch comes back ENGAGED, with
// the reason, until the trader looks and releases it.
//
// Limits are read one key at a time over the defaults, so adding a limit (or reading a file
// written before it existed, version 1) keeps every other stored limit and the kill switch as
// stored: a missing key takes its default, a bad value takes its default for that key alone,
// an unknown key is ignored; each is said in `problems`. The file is written back whole, as v2.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_RISK_LIMITS, RiskLimits, type KillSwitchView } from '../../src-shared/ipc/risk';
import { writeJsonFile } from '../base/json-file';

const FILE_VERSION = 2;
const KillSwitchFile = z.object({ engaged: z.boolean(), since: z.number().int().nullable(), detail: z.string().max(500) }).strict();

/** What is written: every limit, current version. */
interface RiskFile {
  version: typeof FILE_VERSION;
  limits: RiskLimits;
  killSwitch: KillSwitchView;
}

/** What is read: v1 (same shape, fewer limits) or v2; the limits are checked per key below. */
const StoredRiskFile = z
  .object({
    version: z.union([z.literal(1), z.literal(FILE_VERSION)]),
    limits: z.record(z.string(), z.unknown()),
    killSwitch: KillSwitchFile,
  })
  .strict();

const LIMIT_SCHEMAS = RiskLimits.shape;
type LimitKey = keyof RiskLimits;
const isLimitKey = (k: string): k is LimitKey => Object.hasOwn(LIMIT_SCHEMAS, k);

/** The stored limits over the defaults, key by key, with a line for each key not taken as stored. */
function mergeLimits(stored: Record<string, unknown>): { limits: RiskLimits; notes: string[] } {
  const limits: Record<string, unknown> = { ...DEFAULT_RISK_LIMITS };
  const notes: string[] = [];
  for (const key of Object.keys(LIMIT_SCHEMAS) as LimitKey[]) {
    const fallback = String(DEFAULT_RISK_LIMITS[key]);
    if (!Object.hasOwn(stored, key)) {
      notes.push(`${key} is not in the file: default ${fallback}`);
      continue;
    }
    const parsed = LIMIT_SCHEMAS[key].safeParse(stored[key]);
    if (parsed.success) limits[key] = parsed.data;
    else notes.push(`${key} ${JSON.stringify(stored[key])} is not valid (${parsed.error.issues[0]?.message ?? 'invalid'}): default ${fallback}`);
  }
  for (const key of Object.keys(stored)) if (!isLimitKey(key)) notes.push(`${key} is not a known limit: ignored`);
  // every key was set from a default or a value its own schema accepted
  return { limits: limits as RiskLimits, notes };
}

const RELEASED: KillSwitchView = { engaged: false, since: null, detail: '' };

export class RiskStore {
  private readonly cache = new Map<string, RiskFile>();
  /** problems met reading files, for the log and the Risk panel */
  readonly problems: string[] = [];

  constructor(private readonly dir: string) {}

  private file(profileId: string): string {
    return path.join(this.dir, `${profileId}.json`);
  }

  private load(profileId: string): RiskFile {
    const hit = this.cache.get(profileId);
    if (hit) return hit;
    let data: RiskFile = { version: FILE_VERSION, limits: DEFAULT_RISK_LIMITS, killSwitch: RELEASED };
    const file = this.file(profileId);
    if (existsSync(file)) {
      let problem: string | null = null;
      try {
        const parsed = StoredRiskFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        if (parsed.success) {
          const { limits, notes } = mergeLimits(parsed.data.limits);
          for (const note of notes) this.problems.push(`${file}: ${note}`);
          data = { version: FILE_VERSION, limits, killSwitch: parsed.data.killSwitch };
        } else problem = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      } catch (e) {
        problem = (e as Error).message;
      }
      if (problem !== null) {
        const why = `${file} could not be read (${problem}): default limits, kill switch engaged until released`;
        this.problems.push(why);
        data = { version: FILE_VERSION, limits: DEFAULT_RISK_LIMITS, killSwitch: { engaged: true, since: Date.now(), detail: why.slice(0, 500) } };
      }
    }
    this.cache.set(profileId, data);
    return data;
  }

  limits(profileId: string): RiskLimits {
    return this.load(profileId).limits;
  }

  killSwitch(profileId: string): KillSwitchView {
    return this.load(profileId).killSwitch;
  }

  setLimits(profileId: string, limits: RiskLimits): void {
    this.save(profileId, { ...this.load(profileId), limits });
  }

  setKillSwitch(profileId: string, killSwitch: KillSwitchView): void {
    this.save(profileId, { ...this.load(profileId), killSwitch: { ...killSwitch, detail: killSwitch.detail.slice(0, 500) } });
  }

  private save(profileId: string, data: RiskFile): void {
    writeJsonFile(this.file(profileId), data);
    this.cache.set(profileId, data);
  }
}
