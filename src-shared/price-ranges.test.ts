import { describe, expect, it } from 'vitest';
import { Decimal } from './money';
import {
  finestStep,
  formatPriceAtTick,
  isOnTick,
  isPriceLevelStructure,
  isPriceTextAtTick,
  nextTick,
  orderPriceBounds,
  PRICE_LEVEL_STRUCTURES,
  rangesOf,
  stepAt,
  tickDecimals,
} from './price-ranges';

const d = (s: string) => new Decimal(s);
const cent = rangesOf('linear_cent');
const tapered = rangesOf('tapered_deci_cent');
const deci = rangesOf('deci_cent');
const centi = rangesOf('linear_centi_cent');

describe('price level structures', () => {
  it('are the four the service publishes, with its ranges and steps', () => {
    expect(Object.keys(PRICE_LEVEL_STRUCTURES).sort()).toEqual(['deci_cent', 'linear_cent', 'linear_centi_cent', 'tapered_deci_cent']);
    expect(cent).toEqual([{ start: '0.0000', end: '1.0000', step: '0.0100' }]);
    expect(tapered).toEqual([
      { start: '0.0000', end: '0.1000', step: '0.0010' },
      { start: '0.1000', end: '0.9000', step: '0.0100' },
      { start: '0.9000', end: '1.0000', step: '0.0010' },
    ]);
    expect(deci).toEqual([{ start: '0.0000', end: '1.0000', step: '0.0010' }]);
    expect(isPriceLevelStructure('tapered_deci_cent')).toBe(true);
    expect(isPriceLevelStructure('toString')).toBe(false);
    // a copy: changing it leaves the table alone
    rangesOf('linear_cent')[0]!.step = '0.5';
    expect(rangesOf('linear_cent')[0]!.step).toBe('0.0100');
  });
});

describe('on the tick', () => {
  it('cents: whole cents only; no ranges means cents', () => {
    for (const r of [cent, undefined, []]) {
      expect(isOnTick('0.43', r)).toBe(true);
      expect(isOnTick('0.4300', r)).toBe(true);
      expect(isOnTick('0.435', r)).toBe(false);
      expect(isOnTick('0.4301', r)).toBe(false);
    }
  });
  it('tapered: tenths of a cent below 0.10 and above 0.90, cents between, both at the boundaries', () => {
    expect(isOnTick('0.095', tapered)).toBe(true);
    expect(isOnTick('0.001', tapered)).toBe(true);
    expect(isOnTick('0.0995', tapered)).toBe(false);
    expect(isOnTick('0.10', tapered)).toBe(true);
    expect(isOnTick('0.101', tapered)).toBe(false);
    expect(isOnTick('0.105', tapered)).toBe(false);
    expect(isOnTick('0.11', tapered)).toBe(true);
    expect(isOnTick('0.899', tapered)).toBe(false);
    expect(isOnTick('0.90', tapered)).toBe(true);
    expect(isOnTick('0.901', tapered)).toBe(true);
    expect(isOnTick('0.999', tapered)).toBe(true);
    expect(isOnTick('0.9995', tapered)).toBe(false);
  });
  it('deci-cent and centi-cent grids', () => {
    expect(isOnTick('0.451', deci)).toBe(true);
    expect(isOnTick('0.4515', deci)).toBe(false);
    expect(isOnTick('0.4515', centi)).toBe(true);
  });
  it('0 and 1 (an empty side, a settlement) are on every grid; outside [0, 1] or not a number is not', () => {
    for (const r of [cent, tapered, deci, centi]) {
      expect(isOnTick('0.0000', r)).toBe(true);
      expect(isOnTick('1.0000', r)).toBe(true);
      expect(isOnTick('1.01', r)).toBe(false);
      expect(isOnTick('-0.01', r)).toBe(false);
      expect(isOnTick('abc', r)).toBe(false);
    }
  });
  it('ignores unusable ranges (bad numbers, steps off the 0.0001 grid) and falls back to cents', () => {
    expect(isOnTick('0.43', [{ start: 'x', end: '1', step: '0.01' }])).toBe(true);
    expect(isOnTick('0.435', [{ start: '0', end: '1', step: '0.00005' }])).toBe(false);
  });
});

describe('stepping one tick', () => {
  it('moves across tapered boundaries by the tick on the side it moves into', () => {
    expect(nextTick(d('0.10'), 1, tapered).toFixed(4)).toBe('0.1100');
    expect(nextTick(d('0.10'), -1, tapered).toFixed(4)).toBe('0.0990');
    expect(nextTick(d('0.099'), 1, tapered).toFixed(4)).toBe('0.1000');
    expect(nextTick(d('0.90'), 1, tapered).toFixed(4)).toBe('0.9010');
    expect(nextTick(d('0.90'), -1, tapered).toFixed(4)).toBe('0.8900');
    expect(nextTick(d('0.901'), -1, tapered).toFixed(4)).toBe('0.9000');
    expect(stepAt(d('0.10'), tapered, 1).toString()).toBe('0.01');
    expect(stepAt(d('0.10'), tapered, -1).toString()).toBe('0.001');
  });
  it('snaps an off-grid price to the next grid line in the direction', () => {
    expect(nextTick(d('0.105'), 1, tapered).toFixed(4)).toBe('0.1100');
    expect(nextTick(d('0.105'), -1, tapered).toFixed(4)).toBe('0.1000');
    expect(nextTick(d('0.4312'), 1, cent).toFixed(4)).toBe('0.4400');
  });
  it('stays at prices an order may carry: one tick inside 0 and 1', () => {
    expect(orderPriceBounds(cent)).toEqual({ min: d('0.01'), max: d('0.99') });
    expect(orderPriceBounds(tapered)).toEqual({ min: d('0.001'), max: d('0.999') });
    expect(orderPriceBounds(centi)).toEqual({ min: d('0.0001'), max: d('0.9999') });
    expect(nextTick(d('0.99'), 1, cent).toFixed(2)).toBe('0.99');
    expect(nextTick(d('0.001'), -1, tapered).toFixed(3)).toBe('0.001');
    expect(nextTick(d('0.02'), -1, cent).toFixed(2)).toBe('0.01');
  });
  it('the finest step of a market', () => {
    expect(finestStep(tapered).toString()).toBe('0.001');
    expect(finestStep(undefined).toString()).toBe('0.01');
    expect(finestStep(centi).toString()).toBe('0.0001');
  });
});

describe('a price as text at its tick', () => {
  it('cents show two decimals, tenths of a cent three, centi-cents four', () => {
    expect(formatPriceAtTick('0.4300', cent)).toBe('0.43');
    expect(formatPriceAtTick('0.4300', deci)).toBe('0.430');
    expect(formatPriceAtTick('0.4300', centi)).toBe('0.4300');
    expect(formatPriceAtTick('0.4312', centi)).toBe('0.4312');
  });
  it('a tapered market: each price at the tick of its range, a boundary at the coarser one', () => {
    expect(formatPriceAtTick('0.0950', tapered)).toBe('0.095');
    expect(formatPriceAtTick('0.0900', tapered)).toBe('0.090');
    expect(formatPriceAtTick('0.1000', tapered)).toBe('0.10');
    expect(formatPriceAtTick('0.4500', tapered)).toBe('0.45');
    expect(formatPriceAtTick('0.9000', tapered)).toBe('0.90');
    expect(formatPriceAtTick('0.9050', tapered)).toBe('0.905');
    expect(tickDecimals(d('0.5'), tapered)).toBe(2);
  });
  it('0 and 1 at two decimals or the market tick; an off-grid price keeps every digit (never rounded away)', () => {
    expect(formatPriceAtTick('1.0000', cent)).toBe('1.00');
    expect(formatPriceAtTick('0.0000', deci)).toBe('0.000');
    expect(formatPriceAtTick('0.4312', cent)).toBe('0.4312');
    expect(formatPriceAtTick('0.105', tapered)).toBe('0.105');
  });
  it('isPriceTextAtTick: on the grid and written at its tick, nothing else', () => {
    expect(isPriceTextAtTick('0.43', cent)).toBe(true);
    expect(isPriceTextAtTick('0.4300', cent)).toBe(false);
    expect(isPriceTextAtTick('0.430', cent)).toBe(false);
    expect(isPriceTextAtTick('0.4312', cent)).toBe(false);
    expect(isPriceTextAtTick('0.095', tapered)).toBe(true);
    expect(isPriceTextAtTick('0.10', tapered)).toBe(true);
    expect(isPriceTextAtTick('0.100', tapered)).toBe(false);
    expect(isPriceTextAtTick('0.105', tapered)).toBe(false);
    expect(isPriceTextAtTick('0.450', deci)).toBe(true);
    expect(isPriceTextAtTick('0.45', deci)).toBe(false);
    expect(isPriceTextAtTick('$0.43', cent)).toBe(false);
    expect(isPriceTextAtTick('', cent)).toBe(false);
  });
});
