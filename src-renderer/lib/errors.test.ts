import { describe, expect, it } from 'vitest';
import { TerminalCallError } from './bridge';
import { describeError, ERROR_CODE_TEXT, errorText, isRetryable, moneyText } from './errors';

describe('error text', () => {
  it('turns an exchange code into a sentence and keeps the message, code and status', () => {
    const err = new TerminalCallError({ kind: 'api', status: 400, code: 'insufficient_balance', message: 'balance 1.00 < cost 5.30' });
    expect(describeError(err)).toMatchObject({ title: ERROR_CODE_TEXT.insufficient_balance, code: 'insufficient_balance', status: 400 });
    expect(errorText(err)).toBe(`${ERROR_CODE_TEXT.insufficient_balance} balance 1.00 < cost 5.30 [insufficient_balance, HTTP 400]`);
  });

  it('says a kill-switch refusal once, not the sentence and then main\'s restatement of it', () => {
    const err = new TerminalCallError({ kind: 'risk', code: 'kill_switch', message: 'kill switch engaged: no new orders until it is released' });
    expect(errorText(err)).toBe(`${ERROR_CODE_TEXT.kill_switch} [kill_switch]`);
  });

  it('has a sentence for every code the exchange is known to send', () => {
    for (const code of ['authentication_error', 'header_timestamp_expired', 'not_found', 'order_already_exists', 'invalid_order', 'invalid_parameters', 'too_many_requests', 'forbidden', 'insufficient_balance', 'service_unavailable', 'gateway_timeout', 'server_error']) {
      expect(ERROR_CODE_TEXT[code], code).toBeTruthy();
    }
  });

  it('prefers a sentence for known details such as a post-only cross', () => {
    const e = describeError({ kind: 'api', status: 400, code: 'invalid_order', message: 'rejected', details: 'post only cross' });
    expect(e.title).toMatch(/post-only order would have crossed/);
  });

  it('falls back on the HTTP status for an unknown code, then on the kind', () => {
    expect(describeError({ status: 429, code: 'slow_down', message: 'x' }).title).toBe(ERROR_CODE_TEXT.too_many_requests);
    expect(describeError({ kind: 'validation', message: 'count must be positive' }).title).toBe('Invalid input.');
    expect(describeError(new Error('boom')).title).toBe('Something went wrong.');
  });

  it('retries transport and server trouble, never a refusal or a rate limit', () => {
    expect(isRetryable({ kind: 'network', message: 'x' })).toBe(true);
    expect(isRetryable({ kind: 'api', status: 503, code: 'service_unavailable', message: 'x' })).toBe(true);
    expect(isRetryable({ kind: 'api', status: 400, code: 'invalid_order', message: 'x' })).toBe(false);
    expect(isRetryable({ kind: 'api', status: 429, code: 'too_many_requests', message: 'x' })).toBe(false);
  });
});

describe('money in messages', () => {
  it('reads as money without changing any amount', () => {
    expect(moneyText('insufficient balance: need $150.000000, have $12.500000')).toBe('insufficient balance: need $150.00, have $12.50');
    expect(moneyText('fee $0.005000 on $-3.100000')).toBe('fee $0.005 on $-3.10');
    expect(moneyText('price 0.5300 and $5.00 stay')).toBe('price 0.5300 and $5.00 stay');
    expect(describeError({ kind: 'api', status: 400, code: 'insufficient_balance', message: 'need $150.000000' }).message).toBe('need $150.00');
  });
});
