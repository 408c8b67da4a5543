import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RecorderService } from './recorder-service';

describe('RecorderService settings', () => {
  it('saves settings asked for at the same time one after another, in the order asked: none fails, the last one asked is on disk and in force', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rec-settings-'));
    const svc = new RecorderService({ dataDir, active: () => null });
    try {
      // both in flight at once: before, both wrote settings.json.tmp and the second rename found it gone (ENOENT)
      const views = await Promise.all([1, 2, 3].map((retentionDays) => svc.saveRecorderSettings({ retentionDays })));
      expect(views.map((v) => v.settings.retentionDays)).toEqual([1, 2, 3]);
      const file = path.join(dataDir, 'recordings', 'settings.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ retentionDays: 3 });
      expect((await svc.getRecordings()).settings).toEqual({ retentionDays: 3 });
      expect(readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    } finally {
      await svc.stop();
    }
  });
});
