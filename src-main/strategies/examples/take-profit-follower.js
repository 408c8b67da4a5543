/* global api -- the sandbox gives a strategy this one global (src-main/strategies/sandbox.ts) */
// Example strategy: a take-profit follower.
// When a trade of at least params.minSize contracts prints with YES buyers taking, it follows:
// buys params.size YES at the ask, then rests a take-profit offer params.takeTicks above its
// entry, and exits at the bid if the bid falls params.stopTicks below where the bid was when it
// entered (not below the entry price: that is the spread, and would stop it out at once). One
// position at a time. Given params.ticker it watches that market only.
// It never sends the same order twice within params.holdMs (default 1000 ms): the terminal's risk
// gate refuses an identical order within its duplicate window (500 ms by default) unless the
// trader confirms it, and a strategy cannot confirm. An entry that would repeat one is skipped; a
// take-profit or an exit that would is sent on its timer once the hold has passed.
// Params: { ticker?: string, minSize: "2", size: "1", takeTicks: 200, stopTicks: 300, holdMs: 1000 }
var P = { minSize: '2', size: '1', takeTicks: 200, stopTicks: 300, holdMs: 1000 };
var state = 'flat'; // flat -> entering -> holding -> exiting
var entry = null; // entry price, ticks
var entryBid = null; // the bid when it entered, ticks
var target = null; // id of the resting take-profit
var sent = {}; // "side price" -> when an order like it was last sent (api.now())
var deferred = null; // { order, then } waiting for its hold to pass

function ticks(d) {
  return Math.round(Number(d) * 10000);
}
function price(t) {
  return (Math.max(100, Math.min(9900, t)) / 10000).toFixed(4);
}
function held(o) {
  var at = sent[o.side + ' ' + ticks(o.price)];
  return at !== undefined && api.now() - at < Number(P.holdMs);
}
/** Sends an order now; returns its id. */
function send(o) {
  sent[o.side + ' ' + ticks(o.price)] = api.now();
  for (var k in sent) if (api.now() - sent[k] >= Number(P.holdMs)) delete sent[k];
  return api.place(o);
}
/** Sends it now, or once its hold has passed (then calls then(id)). */
function sendOrDefer(o, then) {
  if (held(o)) deferred = { order: o, then: then };
  else then(send(o));
}
function exit(bid) {
  if (target) api.cancel(target);
  target = null;
  deferred = null;
  state = 'exiting';
  sendOrDefer({ ticker: P.ticker, side: 'ask', price: bid, count: api.position(P.ticker) }, function () {});
  api.log('stopped out at', bid);
}

module.exports = {
  onStart: function (e) {
    for (var k in e.params) P[k] = e.params[k];
    if (P.ticker) api.watch([P.ticker]);
    api.setTimer(250);
  },
  onTimer: function () {
    if (!deferred || held(deferred.order)) return;
    var d = deferred;
    deferred = null;
    // what it holds may have changed meanwhile: send what it holds now
    var pos = api.position(d.order.ticker);
    if (Number(pos) <= 0) return;
    d.order.count = pos;
    d.then(send(d.order));
  },
  onTrade: function (t) {
    if (P.ticker && t.ticker !== P.ticker) return;
    if (state !== 'flat' || t.takerSide !== 'yes' || Number(t.count) < Number(P.minSize)) return;
    var b = api.book(t.ticker);
    if (!b || b.ask === null || b.bid === null) return;
    var o = { ticker: t.ticker, side: 'bid', price: b.ask, count: P.size };
    if (held(o)) return; // the same entry a moment ago: not a new follow
    P.ticker = t.ticker;
    state = 'entering';
    entryBid = ticks(b.bid);
    send(o);
    api.log('following a buy of', t.count, 'at', t.price);
  },
  onFill: function (f) {
    if (f.side === 'bid' && state === 'entering') {
      entry = ticks(f.price);
      if (Number(f.remaining) === 0) {
        state = 'holding';
        sendOrDefer({ ticker: f.ticker, side: 'ask', price: price(entry + P.takeTicks), count: api.position(f.ticker) }, function (id) {
          target = id;
        });
      }
    } else if (f.side === 'ask' && Number(api.position(f.ticker)) <= 0) {
      api.log('out at', f.price, 'from', price(entry));
      state = 'flat';
      target = null;
      deferred = null;
    }
  },
  onOrder: function (o) {
    // an entry that rests instead of filling is not a follow any more
    if (state === 'entering' && o.status === 'resting' && o.side === 'bid') {
      api.cancel(o.id);
      state = 'flat';
    }
    // an entry the gate or the exchange refused leaves it flat (not waiting for a fill forever)
    if (state === 'entering' && o.status === 'refused' && o.side === 'bid') {
      api.log('entry refused:', o.reason);
      state = 'flat';
    }
  },
  onBook: function (b) {
    if (state !== 'holding' || b.ticker !== P.ticker || b.bid === null) return;
    if (ticks(b.bid) <= entryBid - P.stopTicks) exit(b.bid);
  },
};
