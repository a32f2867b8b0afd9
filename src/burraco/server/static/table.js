// The browser table of burraco serve: one seat's view of a table over the play socket
// (docs/server.md). Every action the page offers is one of the `legal` texts of the last view
// frame, sent as it is; the page knows no rules of its own.

import {
  backElement,
  cardElement,
  cardLabel,
  isWildKind,
  parseLayout,
  parseMove,
  sameCards,
  sortHand,
} from "./cards.js";
import { claimFromAddress, joinLink, seatKey } from "./join.js";

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- which table, which seat -----------------------------------------------------------------

function tableIdFromLocation() {
  const match = /^\/table\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (match) return match[1];
  return new URLSearchParams(location.search).get("id");
}

// The token arrives in the fragment (#seat=0&token=...), which the browser never sends to the
// server; it is kept in sessionStorage for reloads and taken out of the address bar.
function takeCredentials(tableId) {
  const key = seatKey(tableId);
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) {
    const credentials = { token: fragment.get("token"), seat: Number(fragment.get("seat") || 0) };
    sessionStorage.setItem(key, JSON.stringify(credentials));
    history.replaceState(null, "", location.pathname + location.search);
    return credentials;
  }
  const stored = sessionStorage.getItem(key);
  return stored ? JSON.parse(stored) : null;
}

const tableId = tableIdFromLocation();
let credentials = tableId ? takeCredentials(tableId) : null; // or a join link's, at the start

const state = {
  frame: null, // the last view frame
  seats: null, // GET /api/tables/{id}'s seats: kinds and policies
  selected: [], // indices into the sorted hand
  sortedHand: [],
  fresh: [], // the cards the seat's last draw, pile or pozzetto brought into the hand, by name
  heldHand: null, // the hand of the last view, to tell which cards are new
  pending: null, // the seq of the move sent and not yet acknowledged
  seq: 0,
  chain: null, // a lay-off of several cards: {index, cards}, played one legal add at a time
  log: [],
  lastHand: null,
  socket: null,
  retry: 500,
  closed: false,
  focusKey: null, // what had the focus, by its key (below, "the focus")
  focusAfter: null, // where the focus goes once the move sent from the keyboard is answered
  keyboard: false, // whether the last input was a key rather than a pointer
  hintSeq: null, // the seq of the hint asked for and not yet answered
  advice: null, // the last hint frame (shown while its hand and ply are the table's)
  hintsLeft: null, // the hints the seat has left in this hand, once the server said
  clockAt: 0, // when the last frame's turn clock was read (performance.now())
};

// The turn clock counts down between frames.
setInterval(() => {
  if (state.frame && state.frame.clock) renderSeats(state.frame);
}, 1000);

// ---- the socket ---------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const path = credentials
    ? `/api/tables/${tableId}/play?token=${encodeURIComponent(credentials.token)}`
    : `/api/tables/${tableId}/watch`;
  const socket = new WebSocket(`${scheme}//${location.host}${path}`);
  state.socket = socket;
  socket.onopen = () => {
    state.retry = 500;
    state.pending = null;
    state.chain = null;
  };
  socket.onmessage = (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    onFrame(frame);
  };
  socket.onclose = (event) => {
    if (state.socket !== socket) return;
    if (event.code === 1008) {
      state.closed = true;
      showError(
        credentials
          ? "The server closed the connection: this table or this seat's token is not valid (or too many messages)."
          : "There is no such table."
      );
      render();
      return;
    }
    if (state.frame && state.frame.status === "finished") return;
    showError("Connection lost; reconnecting…");
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 8000);
  };
}

function send(moveText) {
  const frame = state.frame;
  if (!frame || !state.socket || state.socket.readyState !== WebSocket.OPEN) return;
  state.seq += 1;
  state.pending = state.seq;
  hideError();
  hideChoice();
  // hand and ply make the move stale rather than played in another position (a double click).
  state.socket.send(JSON.stringify({ type: "move", move: moveText, seq: state.seq, hand: frame.hand, ply: frame.ply }));
  render();
}

function onFrame(frame) {
  if (frame.type === "view") onView(frame);
  else if (frame.type === "result") onResult(frame);
  else if (frame.type === "error") onError(frame);
  else if (frame.type === "hint") onHint(frame);
  else if (frame.type === "seat") onSeat(frame);
}

// What happened to a person's seat (docs/server.md "When a person leaves"): left, back, played by a
// bot, taken back, out of time. The log says it, the players' panel shows it.
function onSeat(frame) {
  state.log.push({ text: frame.message });
  state.clockAt = performance.now();
  if (state.frame) state.frame = { ...state.frame, players: frame.players, clock: frame.clock };
  render();
}

// A hint (docs/server.md "Hints"): the server's search ranks the seat's moves.
function askHint() {
  if (!canAct() || state.hintSeq !== null) return;
  state.seq += 1;
  state.hintSeq = state.seq;
  state.socket.send(JSON.stringify({ type: "hint", seq: state.seq }));
  render();
}

function onHint(frame) {
  if (frame.seq !== state.hintSeq) return;
  state.hintSeq = null;
  state.advice = frame;
  state.hintsLeft = frame.left;
  render();
}

// The advice while the table is where it was asked: "Hint: meld 5h 6h 7h (67% of 600 searches)".
function renderAdvice(frame) {
  const box = $("advice");
  const advice = state.advice;
  const current = advice && advice.hand === frame.hand && advice.ply === frame.ply;
  box.hidden = !current && state.hintSeq === null;
  if (state.hintSeq !== null) {
    box.textContent = "Thinking…";
    delete box.dataset.move;
  } else if (current && advice.moves.length) {
    const best = advice.moves[0].move;
    const others = advice.moves.slice(1).map((m) => m.move);
    const sure = Math.round(advice.confidence * 100);
    box.textContent = `Hint: ${best} (${sure}% of ${advice.iterations} searches)` +
      (others.length ? `; then ${others.join(", ")}` : "");
    box.dataset.move = best;
  }
  $("suggest").disabled = !canAct() || state.hintSeq !== null || state.hintsLeft === 0;
  $("suggest").textContent = state.hintsLeft === null ? "Hint" : `Hint (${state.hintsLeft})`;
  return current ? advice.moves[0].move : null;
}

function seatName(seat) {
  if (credentials && seat === credentials.seat) return "You";
  const info = state.seats && state.seats[seat];
  if (info && info.kind === "bot") return `Seat ${seat} · bot ${info.policy}`;
  if (info && info.kind === "human") return `Seat ${seat} · human`;
  if (info && info.kind === "open") return `Seat ${seat} · open`;
  return `Seat ${seat}`;
}

function onView(frame) {
  const previous = state.frame;
  if (frame.players) state.seats = frame.players; // an open seat claimed: a person's now
  state.clockAt = performance.now();
  const selectedNames = state.selected.map((i) => state.sortedHand[i]);
  if (state.lastHand !== frame.hand) {
    if (state.lastHand !== null) state.log.push({ text: `— hand ${frame.hand + 1} —` });
    state.lastHand = frame.hand;
    state.hintsLeft = null; // a new hand: the seat's hints again
    state.heldHand = null;
    state.fresh = [];
  }
  if (frame.last) {
    state.log.push({ text: `${seatName(frame.last.seat)}: ${frame.last.moves.join(", ")}` });
    if (state.log.length > 60) state.log.splice(0, state.log.length - 60);
  }
  if (frame.seq !== null && frame.seq === state.pending) state.pending = null;
  if (!frame.your_turn) state.pending = null;
  state.frame = frame;
  if (!state.closed) hideErrorIfConnection();

  // Keep what was selected, by card name, among the cards still in the hand.
  const hand = (frame.view.seats[frame.seat ?? 0] || {}).hand || [];
  state.sortedHand = sortHand(hand);
  noteFreshCards(hand);
  const moved = previous && frame.last && frame.last.seat === frame.seat;
  state.selected = [];
  if (!moved || state.chain) {
    for (const name of selectedNames) {
      const index = state.sortedHand.findIndex((n, i) => n === name && !state.selected.includes(i));
      if (index >= 0) state.selected.push(index);
    }
  }
  render();
  continueChain();
}

// The cards that came into the hand since the last view (a draw, the pile, the pozzetto) are
// marked until the next cards come; a marked card that leaves the hand loses its mark. The first
// view of a hand (or after a reload) marks nothing.
function noteFreshCards(hand) {
  const before = state.heldHand;
  state.heldHand = hand.slice();
  if (before === null) return;
  const gained = takeAway(hand, before);
  if (gained.length > 0) {
    state.fresh = gained;
    return;
  }
  const kept = hand.slice();
  state.fresh = state.fresh.filter((name) => {
    const at = kept.indexOf(name);
    if (at < 0) return false;
    kept.splice(at, 1);
    return true;
  });
}

// The multiset `cards` less the multiset `less`.
function takeAway(cards, less) {
  const rest = less.slice();
  return cards.filter((name) => {
    const at = rest.indexOf(name);
    if (at < 0) return true;
    rest.splice(at, 1);
    return false;
  });
}

function onResult(frame) {
  state.chain = null;
  state.pending = null;
  showResult(frame);
  if (state.frame) state.frame = { ...state.frame, your_turn: false, legal: [] };
  render();
}

function onError(frame) {
  if (frame.seq !== null && frame.seq === state.pending) state.pending = null;
  if (frame.seq !== null && frame.seq === state.hintSeq) state.hintSeq = null;
  if (frame.code === "no_hints") state.hintsLeft = 0;
  state.chain = null;
  showError(`${frame.code}: ${frame.message}`);
  render();
}

// ---- matching a selection to the legal moves -----------------------------------------------------

function canAct() {
  return Boolean(state.frame && state.frame.your_turn && state.pending === null && !state.closed);
}

function legalMoves() {
  return canAct() ? state.frame.legal.map(parseMove) : [];
}

function selectedCards() {
  return state.selected.map((i) => state.sortedHand[i]);
}

function meldMoves() {
  const cards = selectedCards();
  if (cards.length === 0) return [];
  return legalMoves().filter((m) => m.kind === "meld" && sameCards(m.cards, cards));
}

function discardMoves() {
  const cards = selectedCards();
  if (cards.length !== 1) return [];
  return legalMoves().filter((m) => m.kind === "discard" && m.cards[0] === cards[0]);
}

// The legal lay-offs of the selected cards on the side's meld `index`.
function addMoves(index) {
  const cards = selectedCards();
  return legalMoves().filter((m) => m.kind === "add" && m.index === index && cards.includes(m.cards[0]));
}

function simpleMoves(kind) {
  return legalMoves().filter((m) => m.kind === kind);
}

const MAPPED = new Set(["draw", "pile", "meld", "add", "discard"]);

// Play one of `moves`: nothing when there is none, the move when there is one, and a choice when
// several legal texts match what was clicked.
function play(moves, what) {
  if (moves.length === 0) return;
  if (moves.length === 1) {
    send(moves[0].text);
    return;
  }
  offerChoice(moves, what);
}

function offerChoice(moves, what) {
  const box = $("choice");
  box.replaceChildren(el("span", null, `${what}: which one?`));
  for (const move of moves) {
    const button = el("button", null, move.text);
    button.dataset.move = move.text;
    button.dataset.focus = `choice:${move.text}`;
    button.onclick = () => send(move.text);
    box.append(button);
  }
  const cancel = el("button", null, "cancel");
  cancel.onclick = hideChoice;
  box.append(cancel);
  box.hidden = false;
}

function hideChoice() {
  $("choice").hidden = true;
  $("choice").replaceChildren();
}

function layOff(index) {
  const moves = addMoves(index);
  if (moves.length === 0) return;
  const cards = selectedCards();
  if (cards.length > 1) {
    // Several cards on one meld: one legal `add` at a time, the next one after the view that
    // acknowledges it, so that every text sent is one of the legal list.
    state.chain = { index, cards: cards.slice() };
    continueChain();
    return;
  }
  play(moves, "Lay off");
}

function continueChain() {
  const chain = state.chain;
  if (!chain || !canAct()) return;
  const legal = legalMoves().filter((m) => m.kind === "add" && m.index === chain.index);
  const next = legal.find((m) => chain.cards.includes(m.cards[0]));
  if (!next) {
    state.chain = null;
    render();
    return;
  }
  chain.cards.splice(chain.cards.indexOf(next.cards[0]), 1);
  if (chain.cards.length === 0) state.chain = null;
  send(next.text);
}

// ---- drawing the table ---------------------------------------------------------------------------

function render() {
  const frame = state.frame;
  if (!frame) return;
  const focus = focusedKey();
  draw(frame);
  fitMelds();
  restoreFocus(focus);
}

function draw(frame) {
  const body = document.body.dataset;
  const view = frame.view;
  body.hand = frame.hand;
  body.ply = frame.ply;
  body.phase = view.phase;
  body.status = frame.status;
  body.yourTurn = canAct() ? "true" : "false";
  body.pending = state.pending === null ? "" : String(state.pending);

  $("table-info").textContent =
    `table ${frame.table} · ${view.rules} · ${frame.match ? `hand ${frame.hand + 1} of the match` : "one hand"}` +
    (credentials ? ` · you are seat ${credentials.seat}` : " · watching");
  renderTurn(frame);
  renderSides(frame);
  renderSeats(frame);
  renderDeck(frame);
  renderPozzetti(frame);
  renderScores(frame);
  renderLog();
  renderHand(frame);
  renderControls(frame);
}

function renderTurn(frame) {
  const banner = $("turn");
  banner.classList.toggle("mine", canAct());
  if (frame.status === "finished" || frame.view.phase === "over") {
    banner.textContent = frame.match && frame.match.over ? "match over" : "hand over";
    banner.dataset.state = "over";
  } else if (frame.open_seats && frame.open_seats.length) {
    banner.textContent = `waiting for ${plural(frame.open_seats.length, "open seat")} to be taken`;
    banner.dataset.state = "waiting";
  } else if (frame.your_turn) {
    banner.textContent = frame.view.phase === "draw" ? "your turn: draw" : "your turn: meld or discard";
    banner.dataset.state = "mine";
  } else {
    banner.textContent = `${seatName(frame.view.turn)} to play`;
    banner.dataset.state = "waiting";
  }
}

const BURRACO_LABEL = { clean: "clean burraco", "semi-clean": "semi-clean burraco", dirty: "dirty burraco" };

function renderSides(frame) {
  const view = frame.view;
  const mySide = frame.seat === null ? null : view.seats[frame.seat].side;
  const holder = $("sides");
  holder.replaceChildren();
  // Your side at the bottom, next to your hand.
  const sides = view.sides.slice().sort((a, b) => (a.side === mySide) - (b.side === mySide));
  for (const side of sides) {
    const mine = side.side === mySide;
    const box = el("div", "side");
    box.dataset.side = side.side;
    if (mine) box.classList.add("mine");
    const title = el("h2");
    const who = side.seats.map((s) => seatName(s)).join(" & ");
    const points = side.melds.reduce((sum, m) => sum + m.points, 0);
    title.append(el("b", null, mine ? `Your side (${who})` : who), el("span", null, `${points} points on the table`));
    if (side.need !== null && side.need !== undefined && !side.opened) {
      title.append(el("span", null, `opening needs ${side.need}`));
    }
    box.append(title);
    const melds = el("div", "melds");
    if (side.melds.length === 0) melds.append(el("span", "empty", "no melds yet"));
    side.melds.forEach((meld, index) => {
      const node = el("div", "meld");
      node.dataset.index = index;
      node.dataset.layout = meld.layout;
      node.dataset.focus = `meld:${side.side}:${index}`;
      for (const { name, standsFor } of parseLayout(meld.layout)) {
        node.append(cardElement(name, { size: "small", standsFor }));
      }
      const meta = el("span", "meta", meld.burraco ? BURRACO_LABEL[meld.burraco] : `${meld.kind} · ${meld.points}`);
      if (meld.burraco) {
        node.classList.add("burraco");
        meta.textContent += ` · ${meld.points}`;
      }
      node.append(meta);
      node.title = `meld ${index}: ${meld.layout} (${meld.points} points)`;
      const cards = [...node.querySelectorAll(".card")].map((c) => c.getAttribute("aria-label"));
      const kind = (meld.burraco ? `${BURRACO_LABEL[meld.burraco]}, ` : "") + meld.kind;
      let label = `${mine ? "your side's" : `side ${side.side}'s`} meld ${index + 1}, ${kind}, ` +
        `${meld.points} points: ${cards.join(", ")}`;
      node.setAttribute("role", "group");
      if (mine && addMoves(index).length > 0) {
        node.classList.add("target");
        node.title += " — click to lay the selected cards off here";
        label += "; press Enter to lay the selected cards off here";
        node.setAttribute("role", "button");
        node.tabIndex = 0;
        node.onclick = () => layOff(index);
        onActivate(node, (event) => {
          focusAfter(event, "hand");
          layOff(index);
        });
      }
      node.setAttribute("aria-label", label);
      melds.append(node);
    });
    box.append(melds);
    holder.append(box);
  }
}

function renderSeats(frame) {
  const view = frame.view;
  const panel = $("seats");
  panel.replaceChildren(el("h3", null, "Players"));
  for (const seat of view.seats) {
    const row = el("div", "seat");
    row.dataset.seat = seat.seat;
    if (view.phase !== "over" && view.turn === seat.seat) row.classList.add("to-act");
    row.append(el("span", "dot"), el("span", null, seatName(seat.seat)));
    row.append(el("span", "count", `${seat.hand_size} card${seat.hand_size === 1 ? "" : "s"}`));
    panel.append(row);
    const note = presence(frame, seat.seat);
    if (note) panel.append(el("div", "presence", note));
    if (seat.seat !== frame.seat && seat.known && seat.known.length) {
      panel.append(el("div", "known", `known: ${seat.known.join(" ")}`));
    }
  }
}

// Who plays a person's seat now, and the turn clock, from the view's `players` and `clock`.
function presence(frame, seat) {
  const who = frame.players && frame.players[seat];
  const parts = [];
  if (who && who.kind === "open") parts.push(`free: anyone with its join link may take it (${joinLink(tableId, seat)})`);
  if (who && who.kind === "human") {
    if (who.replaced) parts.push(`played by ${who.played_by} since its person left`);
    if (who.returning) parts.push("its person takes it back at their next turn");
    else if (who.away && !who.replaced) {
      parts.push(who.grace === null ? "away" : `away: a bot plays in ${Math.ceil(who.grace)} s`);
    }
  }
  const clock = frame.clock;
  if (clock && clock.seat === seat) {
    const left = Math.max(0, Math.ceil(clock.seconds - (performance.now() - state.clockAt) / 1000));
    parts.push(`${left} s left to play`);
  }
  return parts.join("; ");
}

function renderDeck(frame) {
  const view = frame.view;
  const stock = $("stock");
  stock.replaceChildren(backElement(view.stock_size), el("span", "count", `stock: ${view.stock_size}`));
  const draws = simpleMoves("draw");
  stock.onclick = () => play(draws, "Draw");
  control(stock, "stock", draws.length > 0, `the stock, ${plural(view.stock_size, "card")}` +
    (draws.length > 0 ? ": press Enter to draw" : ""), (event) => {
    focusAfter(event, "fresh");
    play(draws, "Draw");
  });

  const pile = $("pile");
  pile.replaceChildren();
  const rest = view.pile.slice();
  if (view.top) {
    rest.splice(rest.indexOf(view.top), 1);
    const top = cardElement(view.top);
    top.classList.add("top");
    top.title = `${view.top}: the top of the pile`;
    pile.append(top);
  }
  for (const name of rest) pile.append(cardElement(name, { size: "tiny" }));
  if (view.pile.length === 0) pile.append(el("div", "card slot", "empty"));
  $("pile-label").textContent = `discard pile: ${plural(view.pile.length, "card")}`;
  const takes = simpleMoves("pile");
  pile.onclick = () => play(takes, "Take the pile");
  const top = view.top ? `, ${cardLabel(view.top)} on top` : "";
  const pileLabel = `the discard pile, ${plural(view.pile.length, "card")}${top}` +
    (takes.length > 0 ? ": press Enter to take it all" : "");
  control(pile, "pile", takes.length > 0, pileLabel, (event) => {
    focusAfter(event, "fresh");
    play(takes, "Take the pile");
  });
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

// The stock or the pile as a control: a button for the keyboard and screen readers when it can
// be played, marked disabled when not (it stays named, so that it can be read).
function control(node, key, active, label, action) {
  node.classList.toggle("active", active);
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.setAttribute("aria-disabled", active ? "false" : "true");
  node.dataset.focus = key;
  node.tabIndex = active ? 0 : -1;
  onActivate(node, (event) => {
    if (active) action(event);
  });
}

// Enter or Space on a focused element does what a click does.
function onActivate(node, action) {
  node.onkeydown = (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    action(event);
  };
}

const POZZETTO_STATUS = {
  untaken: "waiting",
  face_down: "taken, face down",
  seen: "taken, seen",
  in_hand: "taken",
  stock: "into the stock",
};

function renderPozzetti(frame) {
  const holder = $("pozzetti");
  holder.replaceChildren();
  frame.view.pozzetti.forEach((packet, index) => {
    const box = el("div", "pozzetto");
    box.dataset.status = packet.status;
    if (packet.status !== "untaken") box.classList.add("taken");
    box.append(backElement(packet.size ?? "", "tiny"));
    let text = POZZETTO_STATUS[packet.status] || packet.status;
    if (packet.owner !== null && packet.owner !== undefined) text += ` (side ${packet.owner})`;
    box.append(el("div", null, `pozzetto ${index + 1}: ${text}`));
    holder.append(box);
  });
}

function renderScores(frame) {
  const view = frame.view;
  const panel = $("scores");
  panel.replaceChildren(el("h3", null, "Scores"));
  const table = el("table");
  const head = el("tr");
  head.append(el("th", null, ""), el("th", null, "on the table"));
  if (frame.match) head.append(el("th", null, "match"));
  table.append(head);
  const matchScores = frame.match ? frame.match.scores : view.scores;
  for (const side of view.sides) {
    const row = el("tr");
    const points = side.melds.reduce((sum, m) => sum + m.points, 0);
    const name = frame.seat !== null && side.seats.includes(frame.seat) ? "your side" : `side ${side.side}`;
    const score = matchScores && matchScores[side.side] !== undefined ? matchScores[side.side] : "";
    row.append(el("td", null, name), el("td", null, String(points)));
    if (frame.match) row.append(el("td", null, String(score)));
    table.append(row);
  }
  panel.append(table);
  if (frame.match) {
    panel.append(el("div", "info", `match to ${frame.match.target}, ${frame.match.hands_played} hand(s) played`));
  }
}

function renderLog() {
  const log = $("log");
  log.replaceChildren(...state.log.slice(-30).map((entry) => el("div", null, entry.text)));
  if (log.lastElementChild) log.lastElementChild.classList.add("last");
  log.scrollTop = log.scrollHeight;
}

// Each card of the hand sits in a slot of its own, which the layout narrows when the hand is long
// (the cards then overlap, the corner of each still showing). A card is a toggle button: a click,
// or Enter or Space when it has the focus, selects it; the arrow keys move along the hand.
function renderHand(frame) {
  const hand = $("hand");
  hand.replaceChildren();
  if (frame.seat === null) {
    hand.append(el("span", "hint", "Watching: the hands are hidden."));
    return;
  }
  const fresh = state.fresh.slice();
  const seen = {};
  let lastGroup = null;
  state.sortedHand.forEach((name, index) => {
    const group = name === "Jk" || name[0] === "2" ? "wild" : name[1];
    if (lastGroup !== null && group !== lastGroup) hand.append(el("span", "gap"));
    lastGroup = group;
    const slot = el("div", "slot");
    const card = cardElement(name);
    card.dataset.index = index;
    seen[name] = (seen[name] || 0) + 1;
    card.dataset.focus = `hand:${name}:${seen[name]}`;
    let label = cardLabel(name);
    if (isWildKind(name)) {
      card.title += " (wild)";
      label += ", wild";
    }
    const isFresh = fresh.indexOf(name);
    if (isFresh >= 0) {
      fresh.splice(isFresh, 1);
      card.classList.add("fresh");
      card.append(el("span", "fresh-tag", "new"));
      card.title += " (just drawn)";
      label += ", just drawn";
    }
    const selected = state.selected.includes(index);
    if (selected) card.classList.add("selected");
    card.setAttribute("role", "button");
    card.setAttribute("aria-pressed", selected ? "true" : "false");
    card.setAttribute("aria-label", label);
    card.tabIndex = 0;
    card.onclick = () => toggle(index);
    card.onkeydown = (event) => handKey(event, index);
    slot.append(card);
    hand.append(slot);
  });
}

function handKey(event, index) {
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    toggle(index);
    return;
  }
  const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
  if (step === undefined) return;
  event.preventDefault();
  const cards = [...$("hand").querySelectorAll(".card[data-index]")];
  const to = Math.max(0, Math.min(cards.length - 1, index + step));
  if (cards[to]) cards[to].focus();
}

function toggle(index) {
  const at = state.selected.indexOf(index);
  if (at >= 0) state.selected.splice(at, 1);
  else state.selected.push(index);
  state.chain = null;
  hideChoice();
  render();
}

function renderControls(frame) {
  const melds = meldMoves();
  const discards = discardMoves();
  $("meld").disabled = melds.length === 0;
  $("meld").onclick = (event) => {
    focusAfter(event, "hand");
    play(melds, "Meld");
  };
  $("discard").disabled = discards.length === 0;
  $("discard").onclick = (event) => {
    focusAfter(event, "stock");
    play(discards, "Discard");
  };
  $("clear").disabled = state.selected.length === 0;
  $("clear").onclick = () => {
    state.selected = [];
    state.chain = null;
    render();
  };
  // Moves the table has no control for (the brazilian first draw's keep or reject) as buttons.
  const others = $("other-moves");
  others.replaceChildren();
  for (const move of legalMoves().filter((m) => !MAPPED.has(m.kind))) {
    const button = el("button", null, move.text);
    button.dataset.move = move.text;
    button.dataset.focus = `move:${move.text}`;
    button.onclick = () => send(move.text);
    others.append(button);
  }
  $("hint").textContent = hint(frame);
  $("suggest").onclick = askHint;
  const hinted = renderAdvice(frame);
  const list = $("legal-list");
  list.replaceChildren(...legalMoves().map((m) => {
    const item = el("li", m.text === hinted ? "hinted" : null, m.text);
    item.dataset.move = m.text;
    return item;
  }));
  $("legal").querySelector("summary").textContent = `your legal moves (${list.children.length})`;
}

function hint(frame) {
  if (frame.seat === null) return "";
  if (frame.status === "finished") return "The table is finished.";
  if (frame.open_seats && frame.open_seats.length) {
    return `The hand starts once every open seat is taken: ${frame.open_seats.map((s) => joinLink(tableId, s)).join(" ")}`;
  }
  if (state.pending !== null) return "Sending…";
  if (!frame.your_turn) return `Waiting for ${seatName(frame.view.turn)}.`;
  if (frame.view.phase === "draw") return "Draw from the stock, or take the whole discard pile.";
  if (state.selected.length === 0) return "Select cards to meld, lay off on a meld of your side, or discard one.";
  const parts = [];
  if (meldMoves().length) parts.push("meld them");
  if (discardMoves().length) parts.push("discard it");
  const targets = frame.view.sides.find((s) => s.seats.includes(frame.seat));
  if (targets && targets.melds.some((_, i) => addMoves(i).length)) parts.push("click a glowing meld to lay off");
  return parts.length ? `You can ${parts.join(", or ")}.` : "No legal move with these cards.";
}

// ---- the focus and the fit of the melds ---------------------------------------------------------

// The page is drawn anew at every frame, so the focused card or meld is a new element: the focus
// follows it by its key (data-focus, or a control's id). After a move made with the keyboard, the
// focus goes where the next step is, once the server has answered: from the stock or the pile to
// the card just drawn, from Discard to the stock, from Meld or a lay-off to the hand.
function focusedKey() {
  const active = document.activeElement;
  if (!active || active === document.body) return state.focusKey;
  if (active.dataset && active.dataset.focus) return active.dataset.focus;
  if (active.id && active.closest("main.table")) return `#${active.id}`;
  return null;
}

function keyed(key) {
  if (key.startsWith("#")) return document.getElementById(key.slice(1));
  return document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
}

function firstCard() {
  return $("hand").querySelector(".card[data-index]");
}

const FOCUS_AFTER = {
  fresh: () => $("hand").querySelector(".card.fresh") || firstCard(),
  stock: () => $("stock"),
  hand: () => firstCard() || $("stock"),
};

function restoreFocus(key) {
  state.focusKey = key;
  if (state.pending !== null) return;
  if (state.focusAfter) {
    const next = FOCUS_AFTER[state.focusAfter]();
    state.focusAfter = null;
    if (next) {
      next.focus();
      return;
    }
  }
  const active = document.activeElement;
  if (active && active !== document.body && document.contains(active) && !active.disabled) return;
  if (!key) return;
  const same = keyed(key);
  if (same && !same.disabled) same.focus({ preventScroll: true });
  else if (state.keyboard && firstCard()) firstCard().focus();
}

// What a move played from the keyboard (Enter or Space; a button's click with detail 0) does to
// the focus once it is answered.
function focusAfter(event, where) {
  if (!event || event.type === "keydown" || event.detail === 0) state.focusAfter = where;
}

document.addEventListener("focusin", (event) => {
  if (event.target.closest && event.target.closest("main.table")) state.focusKey = focusedKey();
});
document.addEventListener("keydown", () => (state.keyboard = true), true);
document.addEventListener("pointerdown", () => {
  state.keyboard = false;
  state.focusKey = null;
}, true);

// Where the melds have a box of their own (a screen tall enough for the table to fit it), they are
// drawn smaller, in up to three steps, when they do not fit it.
function fitMelds() {
  const sides = $("sides");
  for (const density of ["0", "1", "2", "3"]) {
    sides.dataset.density = density;
    if (sides.scrollHeight <= sides.clientHeight + 1) return;
  }
}

window.addEventListener("resize", () => {
  if (!state.frame) return;
  fitMelds();
  $("log").scrollTop = $("log").scrollHeight;
});

// ---- errors and the end of a hand ----------------------------------------------------------------

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
}

function hideError() {
  $("error").hidden = true;
}

function hideErrorIfConnection() {
  if ($("error").textContent.startsWith("Connection lost")) hideError();
}

const RESULT_ROWS = [
  ["melds", "melds"],
  ["bonuses", "burracos and bonuses"],
  ["closing", "closing"],
  ["hand", "cards left in hand"],
  ["pozzetto", "pozzetto"],
  ["cut", "cut"],
  ["total", "total"],
];

const END_REASON = {
  closed: "closed",
  stock_exhausted: "the stock ran out",
  deadlock: "a deadlock",
};

function showResult(frame) {
  const result = frame.result;
  const view = state.frame ? state.frame.view : null;
  $("result-title").textContent = `Hand ${frame.hand + 1} is over`;
  const bodyBox = $("result-body");
  bodyBox.replaceChildren();
  let reason = END_REASON[result.end_reason] || result.end_reason;
  if (result.closing_side !== null && result.closing_side !== undefined) reason += ` by side ${result.closing_side}`;
  bodyBox.append(el("p", null, `The hand ended: ${reason}.`));
  const table = el("table");
  table.id = "result-table";
  const head = el("tr");
  head.append(el("th", null, ""));
  const mySide = view && state.frame.seat !== null ? view.seats[state.frame.seat].side : null;
  for (const side of result.sides) {
    head.append(el("th", null, side.side === mySide ? "your side" : `side ${side.side}`));
  }
  table.append(head);
  for (const [key, label] of RESULT_ROWS) {
    const row = el("tr");
    if (key === "total") row.className = "total";
    row.append(el("td", null, label));
    for (const side of result.sides) {
      const cell = el("td", null, String(side[key]));
      cell.dataset.side = side.side;
      cell.dataset.field = key;
      row.append(cell);
    }
    table.append(row);
  }
  bodyBox.append(table);
  if (frame.match) {
    const m = frame.match;
    let text = `Match scores: ${m.scores.join(" – ")} (to ${m.target}, ${m.hands_played} hand(s) played).`;
    if (m.over) text += ` The match is over: side ${m.winner} wins.`;
    bodyBox.append(el("p", null, text));
  }
  const buttons = $("result-buttons");
  buttons.replaceChildren();
  const record = el("a", null, "the record");
  record.href = `/api/tables/${tableId}/record`;
  record.target = "_blank";
  buttons.append(record);
  const review = el("a", null, "review this hand");
  review.id = "review-link";
  review.href = `/review/${tableId}?hand=${frame.hand}`;
  review.target = "_blank";
  buttons.append(review);
  if (frame.status === "playing") {
    const next = el("button", "primary", "Next hand");
    next.id = "next-hand";
    next.onclick = () => {
      $("result").hidden = true;
      $("stock").focus({ preventScroll: true });
    };
    buttons.append(next);
  } else {
    const look = el("button", null, "Look at the table");
    look.onclick = () => ($("result").hidden = true);
    const lobby = el("button", "primary", "New table");
    lobby.onclick = () => (location.href = "/");
    buttons.append(look, lobby);
  }
  $("result").hidden = false;
  // The dialog takes the focus, on its main button, so that Enter goes on from the keyboard.
  buttons.querySelector("button.primary").focus();
  document.body.dataset.result = String(frame.hand);
}

// ---- start -------------------------------------------------------------------------------------

async function start() {
  if (!tableId) {
    showError("No table id in the address: open a table from the lobby.");
    return;
  }
  credentials = await claimFromAddress(tableId, showError, credentials);
  try {
    const answer = await fetch(`/api/tables/${tableId}`);
    if (answer.ok) state.seats = (await answer.json()).seats;
  } catch {
    // the names of the seats are only a nicety
  }
  connect();
}

start();
