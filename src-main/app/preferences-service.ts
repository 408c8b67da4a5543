// Preferences: the terminal's settings and each profile's panel layout, as files under the data
// dir. Layouts are opaque to main (dockview's JSON) but bounded: one per existing profile (so no
// more than profiles may be, MAX_PROFILES), each at most MAX_LAYOUT_BYTES, removed with its
// profile. The profile id in the file name is already a plain identifier (the door's schema),
// so no path can escape.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Settings, type ChannelImpl, type LayoutInput } from '../../src-shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../src-shared/ipc/defaults';
import { readJsonFile, writeJsonFile } from '../base/json-file';
import { StateError } from '../base/errors';


/** a dockview layout with many panels and popouts is a few tens of kB */
export const MAX_LAYOUT_BYTES = 256 * 1024;

export class PreferencesService implements ChannelImpl<'preferences'> {
  private settings: Settings;

  constructor(
    private readonly dataDir: string,
    /** whether a profile of this id exists: layouts are kept for those only */
    private readonly profileExists: (id: string) => boolean,
    private readonly onSettings?: (s: Settings) => void,
  ) {
    this.settings = readJsonFile(path.join(dataDir, 'settings.json'), Settings, () => DEFAULT_SETTINGS);
  }

  current(): Settings {
    return this.settings;
  }

  async getSettings(): Promise<Settings> {
    return this.settings;
  }

  async saveSettings(s: Settings): Promise<void> {
    writeJsonFile(path.join(this.dataDir, 'settings.json'), s);
    this.settings = s;
    this.onSettings?.(s);
  }

  async getLayout(profileId: string): Promise<unknown> {
    return readJsonFile(path.join(this.dataDir, 'layouts', `${profileId}.json`), z.unknown(), () => null);
  }

  async saveLayout(l: z.output<typeof LayoutInput>): Promise<void> {
    if (!this.profileExists(l.profileId)) throw new StateError(`no profile ${l.profileId}: a layout is kept for an existing profile only; nothing saved`);
    const bytes = Buffer.byteLength(JSON.stringify(l.layout ?? null));
    if (bytes > MAX_LAYOUT_BYTES) throw new StateError(`layout is too large to save (${bytes} bytes, at most ${MAX_LAYOUT_BYTES}); the one saved before stays`);
    writeJsonFile(this.layoutFile(l.profileId), l.layout ?? null);
  }

  /** A deleted profile's layout goes with it. */
  forgetLayout(profileId: string): void {
    rmSync(this.layoutFile(profileId), { force: true });
  }

  private layoutFile(profileId: string): string {
    return path.join(this.dataDir, 'layouts', `${profileId}.json`);
  }
}
