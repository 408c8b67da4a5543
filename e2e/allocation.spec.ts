// Account › Allocation against the exchange: the form shows the split the exchange holds, Save
// sends exactly what the form shows (read back from the exchange), and a split that does not add
// up to 100 cannot be saved.
import { test, expect } from './fixtures';
import { openTerminal, restAs, shot, showPanel } from './helpers';

const S = 'allocation';

test('Allocation: shows the exchange split, saves exactly what it shows, refuses a split off 100', async ({ page, terminal }) => {
  const trader = restAs(terminal, 'trader');
  await openTerminal(page, terminal);
  const acct = await showPanel(page, 'account');
  await acct.getByRole('tab', { name: 'Allocation' }).click();
  const percents = acct.getByRole('textbox', { name: 'Percent' });
  const shards = acct.getByRole('textbox', { name: 'Shard' });
  const shown = async () => ({ shards: await shards.evaluateAll((es) => es.map((e) => (e as HTMLInputElement).value)), percents: await percents.evaluateAll((es) => es.map((e) => (e as HTMLInputElement).value)) });
  const held = async () => {
    const a = await trader.getTargetBalanceAllocation();
    return { shards: a.allocations.map((x) => String(x.exchange_index)), percents: a.allocations.map((x) => String(x.percent)), reservation: a.resting_margin_reservation ?? 'sum' };
  };
  const save = acct.getByRole('button', { name: 'Save allocation' });
  await expect(save).toBeVisible();
  const before = await held();
  expect(await shown()).toEqual({ shards: before.shards, percents: before.percents });

  // two shards, 70 / 30: the form first says a total off 100 and will not save it
  while ((await shards.count()) < 2) await acct.getByRole('button', { name: 'Add shard' }).click();
  while ((await shards.count()) > 2) await acct.getByRole('button', { name: 'Remove row' }).last().click();
  await shards.nth(0).fill('0');
  await shards.nth(1).fill('1');
  await percents.nth(0).fill('70');
  await percents.nth(1).fill('40');
  await expect(acct.getByText('Total 110%')).toBeVisible();
  await expect(save).toBeDisabled();
  await percents.nth(1).fill('30');
  await acct.getByLabel('Collateral left for resting orders').selectOption('max');
  await expect(save).toBeEnabled();
  await shot(page, S, '01-before-save');
  await save.click();
  await expect.poll(held).toEqual({ shards: ['0', '1'], percents: ['70', '30'], reservation: 'max' });
  // the form, reloaded from the exchange's answer, shows what it holds
  await expect.poll(shown).toEqual({ shards: ['0', '1'], percents: ['70', '30'] });
  await shot(page, S, '02-saved');
});
