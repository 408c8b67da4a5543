// A profile's risk limits and kill-switch state in <dataDir>/risk/<profile>.json, so both
// survive a restart. A file that cannot be read never crashes the terminal and never loosens
// anything: the limits fall back to their defaults and the kill switch comes back ENGAGED, with
// the reason, until the trader looks and releases it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_RISK_LIMITS, RiskLimits, type KillSwitchView } from '../../src-shared/ipc/risk';
import { writeJsonFile } from '../app/profiles-store';

const RiskFile = z
  .object({
    version: z.literal(1),
    limits: RiskLimits,
    killSwitch: z.object({ engaged: z.boolean(), since: z.number().int().nullable(), detail: z.string().max(500) }).strict(),
  })
  .strict();
type RiskFile = z.infer<typeof RiskFile>;

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
    let data: RiskFile = { version: 1, limits: DEFAULT_RISK_LIMITS, killSwitch: RELEASED };
    const file = this.file(profileId);
    if (existsSync(file)) {
      let raw: unknown;
      let problem: string | null = null;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
        const parsed = RiskFile.safeParse(raw);
        if (parsed.success) data = parsed.data;
        else problem = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      } catch (e) {
        problem = (e as Error).message;
      }
      if (problem !== null) {
        const why = `${file} could not be read (${problem}): default limits, kill switch engaged until released`;
        this.problems.push(why);
        data = { version: 1, limits: DEFAULT_RISK_LIMITS, killSwitch: { engaged: true, since: Date.now(), detail: why.slice(0, 500) } };
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
