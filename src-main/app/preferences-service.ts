// Preferences: the terminal's settings and each profile's panel layout, as files under the data
// dir. Layouts are opaque to main (dockview's JSON) but bounded: one per existing profile (so no
// more than profiles may be, MAX_PROFILES), each at most MAX_LAYOUT_BYTES, removed with its
// profile; beside it up to MAX_NAMED_LAYOUTS named ones ("Save layout as…", names checked by the
// door's LayoutName), bounded the same way. The profile id in the file name is already a plain identifier (the door's schema),
// so no path can escape.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Settings, type ChannelImpl, type LayoutInput, type NamedLayoutInput, type NamedLayoutRef, type NamedLayoutsView } from '../../src-shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../src-shared/ipc/defaults';
import { readJsonFile, writeJsonFile } from '../base/json-file';
import { StateError } from '../base/errors';


/** a dockview layout with many panels and popouts is a few tens of kB */
export const MAX_LAYOUT_BYTES = 256 * 1024;
/** named layouts one profile keeps at most ("Save layout as…"); each is bounded as above */
export const MAX_NAMED_LAYOUTS = 20;

/** A profile's named layouts on disk (a list, not a record: a name is never an object key). */
const NamedFile = z.array(z.object({ name: z.string(), savedAt: z.number(), layout: z.unknown() }).strict());
type NamedFile = z.infer<typeof NamedFile>;

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
    return readJsonFile(this.layoutFile(profileId), z.unknown(), () => null);
  }

  async saveLayout(l: z.output<typeof LayoutInput>): Promise<void> {
    this.checkLayout(l.profileId, l.layout, 'layout', 'the one saved before stays');
    writeJsonFile(this.layoutFile(l.profileId), l.layout ?? null);
  }

  async listNamedLayouts(profileId: string): Promise<NamedLayoutsView> {
    return viewOf(this.readNamed(profileId));
  }

  /** Saves (or replaces) one named layout of an existing profile; refused whole, nothing written, when over a bound. */
  async saveNamedLayout(l: z.output<typeof NamedLayoutInput>): Promise<NamedLayoutsView> {
    this.checkLayout(l.profileId, l.layout, `layout "${l.name}"`, 'nothing saved');
    const others = this.readNamed(l.profileId).filter((x) => x.name !== l.name);
    if (others.length >= MAX_NAMED_LAYOUTS) throw new StateError(`a profile keeps at most ${MAX_NAMED_LAYOUTS} named layouts; delete one first (nothing saved)`);
    const next: NamedFile = [...others, { name: l.name, savedAt: Date.now(), layout: l.layout ?? null }];
    writeJsonFile(this.namedFile(l.profileId), next);
    return viewOf(next);
  }

  async getNamedLayout(r: z.output<typeof NamedLayoutRef>): Promise<unknown> {
    const saved = this.readNamed(r.profileId).find((x) => x.name === r.name);
    if (!saved) throw new StateError(`no layout named "${r.name}" in this profile`);
    return saved.layout;
  }

  async deleteNamedLayout(r: z.output<typeof NamedLayoutRef>): Promise<NamedLayoutsView> {
    const all = this.readNamed(r.profileId);
    const next = all.filter((x) => x.name !== r.name);
    if (next.length === all.length) throw new StateError(`no layout named "${r.name}" in this profile; nothing deleted`);
    writeJsonFile(this.namedFile(r.profileId), next);
    return viewOf(next);
  }

  /** A deleted profile's layouts go with it. */
  forgetLayout(profileId: string): void {
    rmSync(this.layoutFile(profileId), { force: true });
    rmSync(this.namedFile(profileId), { force: true });
  }

  /** Every layout saved (the profile's own and its named ones): of an existing profile, and bounded in size. */
  private checkLayout(profileId: string, layout: unknown, what: string, kept: string): void {
    if (!this.profileExists(profileId)) throw new StateError(`no profile ${profileId}: a layout is kept for an existing profile only; nothing saved`);
    const bytes = Buffer.byteLength(JSON.stringify(layout ?? null));
    if (bytes > MAX_LAYOUT_BYTES) throw new StateError(`${what} is too large to save (${bytes} bytes, at most ${MAX_LAYOUT_BYTES}); ${kept}`);
  }

  private readNamed(profileId: string): NamedFile {
    return readJsonFile(this.namedFile(profileId), NamedFile, () => []);
  }

  private namedFile(profileId: string): string {
    return path.join(this.dataDir, 'layouts', `${profileId}.named.json`);
  }

  private layoutFile(profileId: string): string {
    return path.join(this.dataDir, 'layouts', `${profileId}.json`);
  }
}

function viewOf(all: NamedFile): NamedLayoutsView {
  return { layouts: all.map((l) => ({ name: l.name, savedAt: l.savedAt })).sort((a, b) => b.savedAt - a.savedAt || a.name.localeCompare(b.name)) };
}
