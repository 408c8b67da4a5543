// Profiles and their key metadata in <dataDir>/profiles.json (no secrets: keys live in the
// vault). A file that does not parse is an error naming the file; it is never overwritten.
import path from 'node:path';
import { z } from 'zod';
import { ProfileKind } from '../../src-shared/ipc/contract';
import { FixSettings } from '../../src-shared/ipc/fix';
import { readJsonFile, writeJsonFile } from '../base/json-file';

const KeyMeta = z.object({
  apiKeyId: z.string().min(1),
  name: z.string(),
  source: z.enum(['provisioned', 'imported', 'generated']),
  createdAt: z.number().int(),
});
export type KeyMeta = z.infer<typeof KeyMeta>;

const StoredProfile = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/),
  name: z.string().min(1),
  kind: ProfileKind,
  baseUrl: z.string().optional(),
  wsUrl: z.string().optional(),
  headerPrefix: z.string().optional(),
  keys: z.array(KeyMeta),
  activeKeyId: z.string().nullable(),
  /** keys deleted, rotated away or revoked from this profile: never adopted again (newest last) */
  retiredKeyIds: z.array(z.string()).max(10_000).optional(),
  /** order entry over FIX and the drop copy (src-main/fix); absent: REST only */
  fix: FixSettings.optional(),
});
export type StoredProfile = z.infer<typeof StoredProfile>;

const ProfilesFile = z.object({
  version: z.literal(1),
  activeProfileId: z.string().nullable(),
  profiles: z.array(StoredProfile),
});
type ProfilesFile = z.infer<typeof ProfilesFile>;

/** Profiles one data dir holds at most (each may have a layout file and a journal). */
export const MAX_PROFILES = 50;

export class ProfilesStore {
  private data: ProfilesFile;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'profiles.json');
    this.data = readJsonFile(this.file, ProfilesFile, () => ({ version: 1 as const, activeProfileId: null, profiles: [] }));
  }

  list(): StoredProfile[] {
    return this.data.profiles.map((p) => ({ ...p, keys: [...p.keys] }));
  }

  get(id: string): StoredProfile | undefined {
    return this.data.profiles.find((p) => p.id === id);
  }

  get activeProfileId(): string | null {
    return this.data.activeProfileId;
  }

  upsert(p: StoredProfile): void {
    const i = this.data.profiles.findIndex((x) => x.id === p.id);
    if (i >= 0) this.data.profiles[i] = p;
    else this.data.profiles.push(p);
    this.save();
  }

  remove(id: string): void {
    this.data.profiles = this.data.profiles.filter((p) => p.id !== id);
    if (this.data.activeProfileId === id) this.data.activeProfileId = this.data.profiles[0]?.id ?? null;
    this.save();
  }

  setActive(id: string): void {
    if (!this.get(id)) throw new Error(`no profile ${id}`);
    this.data.activeProfileId = id;
    this.save();
  }

  private save(): void {
    writeJsonFile(this.file, this.data);
  }
}
