/* global api -- the sandbox gives a strategy this one global (src-main/strategies/sandbox.ts) */
// Example strategy: a quoting market maker with inventory limits.
// Joins the inside market on both sides of one market (params.ticker, or the first market with a
// two-sided book) with params.size contracts, requotes when the inside moves, and stops quoting
// the side that would take its position past params.maxPosition contracts either way.
// Params: { ticker?: string, size: "1", maxPosition: 5 }
var P = { size: '1', maxPosition: 5 };
var quotes = { bid: null, ask: null }; // { id, price } per side

function ticks(dollars) {
  return Math.round(Number(dollars) * 10000);
}
function price(t) {
  return (t / 10000).toFixed(4);
}
function pull(side) {
  if (quotes[side]) api.cancel(quotes[side].id);
  quotes[side] = null;
}
function quote(ticker, side, t) {
  if (quotes[side] && quotes[side].price === t) return;
  pull(side);
  quotes[side] = { id: api.place({ ticker: ticker, side: side, price: price(t), count: P.size }), price: t };
}

module.exports = {
  onStart: function (e) {
    for (var k in e.params) P[k] = e.params[k];
    // only its market's events reach it (the others cost a call each)
    if (P.ticker) api.watch([P.ticker]);
    api.log('market maker: size', P.size, 'max position', P.maxPosition);
  },
  onBook: function (b) {
    if (!P.ticker && b.bid !== null && b.ask !== null) P.ticker = b.ticker;
    if (b.ticker !== P.ticker || b.bid === null || b.ask === null) return;
    var pos = Number(api.position(b.ticker));
    if (pos + Number(P.size) <= P.maxPosition) quote(b.ticker, 'bid', ticks(b.bid));
    else pull('bid');
    if (pos - Number(P.size) >= -P.maxPosition) quote(b.ticker, 'ask', ticks(b.ask));
    else pull('ask');
  },
  onFill: function (f) {
    api.log('filled', f.side, f.count, '@', f.price, 'position', f.position);
    var side = f.side;
    if (quotes[side] && quotes[side].id === f.id && Number(f.remaining) === 0) quotes[side] = null;
  },
  onOrder: function (o) {
    if (o.status === 'refused') api.log('refused', o.id, o.reason);
    ['bid', 'ask'].forEach(function (side) {
      if (quotes[side] && quotes[side].id === o.id && (o.status === 'canceled' || o.status === 'refused' || o.status === 'done')) quotes[side] = null;
    });
  },
};
