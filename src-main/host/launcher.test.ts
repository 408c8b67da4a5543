import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeLauncher } from './launcher';

describe('start:web --open launcher', () => {
  it('hands the browser a 0600 file that forwards to the tokened URL without a referrer, then removes it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'launch-'));
    const url = 'http://127.0.0.1:4321/?token=abc123';
    const file = writeLauncher(dir, url, 50);
    expect(path.dirname(file)).toBe(dir);
    expect(file).not.toContain('abc123'); // the path (what the command line shows) has no token
    if (process.platform !== 'win32') expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    const html = readFileSync(file, 'utf8');
    expect(html).toContain(`location.replace(${JSON.stringify(url)})`);
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    await new Promise((r) => setTimeout(r, 120));
    expect(existsSync(file)).toBe(false);
  });

  it('cannot be turned into markup by the URL', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'launch-'));
    const html = readFileSync(writeLauncher(dir, 'http://127.0.0.1:1/?token=</script><script>x()</script>', 10), 'utf8');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });
});
