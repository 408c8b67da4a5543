// The web host's launch token stays with the terminal's own origin (scheme, host and port): the
// page keeps it in sessionStorage and offers it on its socket, never as a cookie, which the
// browser would send to every port of 127.0.0.1. After the terminal was opened, another local
// server's page and its fetch receive no token; a reload of the terminal keeps working; a new
// tab without the token in its URL is refused and says why.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from './fixtures';
import { marketsTable, openTerminal, realProblems } from './helpers';

test('the token reaches no other local port; a reload keeps working; a new tab needs the tokened URL', async ({ page, context, terminal, problems }) => {
  const seen: string[] = [];
  const other: Server = createServer((req, res) => {
    seen.push(`${req.url ?? ''} cookie=${req.headers.cookie ?? ''}`);
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other</title><script>fetch("/probe", { credentials: "include" })</script>');
    } else res.writeHead(204).end();
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  try {
    const token = new URL(terminal.url).searchParams.get('token')!;
    const base = terminal.url.replace(/\?token=\w+$/, '');
    await openTerminal(page, terminal);
    expect(page.url()).not.toContain(token);
    expect((await context.cookies()).filter((c) => c.value.includes(token))).toEqual([]);

    // another server on 127.0.0.1, visited in the same browser: its page load and its fetch
    await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    await expect.poll(() => seen.some((s) => s.startsWith('/probe'))).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const s of seen) expect(s).not.toContain(token);

    // back to the terminal in the same tab, without the token in the address: the tab holds it
    await page.goto(base);
    await expect(marketsTable(page).locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });
    await page.reload();
    await expect(marketsTable(page).locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });

    // a new tab without the token is refused, and says what to open
    const second = await context.newPage();
    await second.goto(base);
    await expect(second.getByText(/holds no launch token/)).toBeVisible();
    await second.close();
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await new Promise<void>((r) => other.close(() => r()));
  }
});
