/* global api -- the sandbox gives a strategy this one global (src-main/strategies/sandbox.ts) */
// Example strategy: a quoting market maker with inventory limits.
// Joins the inside market on both sides of one market (params.ticker, or the first market with a
// two-sided book) with params.size contracts, requotes when the inside moves, and stops quoting
// the side that would take its position past params.maxPosition contracts either way.
// It never sends the same order twice within params.holdMs (default 1000 ms): the terminal's risk
// gate refuses an identical order within its duplicate window (500 ms by default) unless the
// trader confirms it, and a strategy cannot confirm. So a quote stays where it rests while the
// inside is unchanged, and when the inside flickers back to a price it quoted a moment ago (or a
// quote there just filled or was refused) it keeps its resting quote and requotes on its timer
// once the hold has passed.
// Params: { ticker?: string, size: "1", maxPosition: 5, holdMs: 1000 }
var P = { size: '1', maxPosition: 5, holdMs: 1000 };
var quotes = { bid: null, ask: null }; // { id, price } per side
var sent = { bid: {}, ask: {} }; // per side: price (ticks) -> when an order at it was last sent (api.now())

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
/** true when an order at this price on this side went out less than holdMs ago (the gate would call it a duplicate) */
function held(side, t) {
  var at = sent[side][t];
  return at !== undefined && api.now() - at < Number(P.holdMs);
}
function quote(ticker, side, t) {
  if (quotes[side] && quotes[side].price === t) return; // resting where it should: leave it
  if (held(side, t)) return; // keep what rests (if anything); the timer comes back to it
  pull(side);
  sent[side][t] = api.now();
  quotes[side] = { id: api.place({ ticker: ticker, side: side, price: price(t), count: P.size }), price: t };
}
function requote(b) {
  if (!b || b.ticker !== P.ticker || b.bid === null || b.ask === null) return;
  var pos = Number(api.position(b.ticker));
  if (pos + Number(P.size) <= P.maxPosition) quote(b.ticker, 'bid', ticks(b.bid));
  else pull('bid');
  if (pos - Number(P.size) >= -P.maxPosition) quote(b.ticker, 'ask', ticks(b.ask));
  else pull('ask');
  // forget holds that have passed (the map stays small)
  ['bid', 'ask'].forEach(function (side) {
    for (var k in sent[side]) if (!held(side, k)) delete sent[side][k];
  });
}

module.exports = {
  // its parameters, their defaults and the values a parameter sweep tries (the Strategies panel's Sweep)
  params: {
    size: { default: '1', grid: ['1', '2'] },
    maxPosition: { default: 5, grid: [3, 5, 8] },
    holdMs: { default: 1000 },
  },
  onStart: function (e) {
    for (var k in e.params) P[k] = e.params[k];
    // only its market's events reach it (the others cost a call each)
    if (P.ticker) api.watch([P.ticker]);
    // a quote held back (see holdMs) is placed on the next book or timer event after the hold
    api.setTimer(250);
    api.log('market maker: size', P.size, 'max position', P.maxPosition);
  },
  onBook: function (b) {
    if (!P.ticker && b.bid !== null && b.ask !== null) P.ticker = b.ticker;
    requote(b);
  },
  onTimer: function () {
    if (P.ticker) requote(api.book(P.ticker));
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
