/* global api -- the sandbox gives a strategy this one global (src-main/strategies/sandbox.ts) */
// Example strategy: a take-profit follower.
// When a trade of at least params.minSize contracts prints with YES buyers taking, it follows:
// buys params.size YES at the ask, then rests a take-profit offer params.takeTicks above its
// entry, and exits at the bid if the bid falls params.stopTicks below the entry. One position
// at a time.
// Params: { ticker?: string, minSize: "2", size: "1", takeTicks: 200, stopTicks: 300 }
var P = { minSize: '2', size: '1', takeTicks: 200, stopTicks: 300 };
var state = 'flat'; // flat -> entering -> holding -> exiting
var entry = null;
var target = null;

function ticks(d) {
  return Math.round(Number(d) * 10000);
}
function price(t) {
  return (Math.max(100, Math.min(9900, t)) / 10000).toFixed(4);
}

module.exports = {
  onStart: function (e) {
    for (var k in e.params) P[k] = e.params[k];
  },
  onTrade: function (t) {
    if (P.ticker && t.ticker !== P.ticker) return;
    if (state !== 'flat' || t.takerSide !== 'yes' || Number(t.count) < Number(P.minSize)) return;
    var b = api.book(t.ticker);
    if (!b || b.ask === null) return;
    P.ticker = t.ticker;
    state = 'entering';
    api.place({ ticker: t.ticker, side: 'bid', price: b.ask, count: P.size });
    api.log('following a buy of', t.count, 'at', t.price);
  },
  onFill: function (f) {
    if (f.side === 'bid' && state === 'entering') {
      entry = ticks(f.price);
      if (Number(f.remaining) === 0) {
        state = 'holding';
        target = api.place({ ticker: f.ticker, side: 'ask', price: price(entry + P.takeTicks), count: api.position(f.ticker) });
      }
    } else if (f.side === 'ask' && Number(api.position(f.ticker)) <= 0) {
      api.log('out at', f.price, 'from', price(entry));
      state = 'flat';
      target = null;
    }
  },
  onOrder: function (o) {
    // an entry that rests instead of filling is not a follow any more
    if (state === 'entering' && o.status === 'resting' && o.side === 'bid') {
      api.cancel(o.id);
      state = 'flat';
    }
  },
  onBook: function (b) {
    if (state !== 'holding' || b.ticker !== P.ticker || b.bid === null) return;
    if (ticks(b.bid) <= entry - P.stopTicks) {
      if (target) api.cancel(target);
      target = null;
      state = 'exiting';
      api.place({ ticker: b.ticker, side: 'ask', price: b.bid, count: api.position(b.ticker) });
      api.log('stopped out at', b.bid);
    }
  },
};
