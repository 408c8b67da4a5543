// Preferences: the terminal's settings and each profile's panel layout, as files under the data
// dir. Layouts are opaque to main (dockview's JSON) but bounded in size; the profile id in the
// file name is already a plain identifier (the door's schema), so no path can escape.
import path from 'node:path';
import { z } from 'zod';
import { Settings, type LayoutInput, type ServiceMethods } from '../../src-shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../src-shared/ipc/defaults';
import { readJsonFile, writeJsonFile } from './profiles-store';
import { StateError } from './errors';

type PreferenceMethods = Pick<ServiceMethods, 'getSettings' | 'saveSettings' | 'getLayout' | 'saveLayout'>;

const MAX_LAYOUT_BYTES = 1_000_000;

export class PreferencesService implements PreferenceMethods {
  private settings: Settings;

  constructor(
    private readonly dataDir: string,
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
    const text = JSON.stringify(l.layout ?? null);
    if (text.length > MAX_LAYOUT_BYTES) throw new StateError('layout is too large to save');
    writeJsonFile(path.join(this.dataDir, 'layouts', `${l.profileId}.json`), l.layout ?? null);
  }
}
