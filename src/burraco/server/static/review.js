// The review of a finished hand (docs/server.md "Reviews"): the hand stepped move by move, every
// hand open, and for each decision the move played against the move the search of that seat's own
// view preferred, with the search's values: where the hand was lost.

import { cardElement, parseLayout, sortHand } from "./cards.js";

const $ = (id) => document.getElementById(id);
// A loss (in the search's mean reward, 0 to 1) worth marking: about a tenth of a game's swing.
const MARKED = 0.02;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const match = /^\/review\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
const tableId = match ? match[1] : null;
const hand = Number(new URLSearchParams(location.search).get("hand") || "0");
const state = { data: null, at: 0, decisions: new Map() };

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

// The decision at move `number` (from 1), or undefined for a forced move.
function decisionAt(number) {
  return state.decisions.get(number);
}

function value(x) {
  return x === null || x === undefined ? "untried" : x.toFixed(3);
}

function render() {
  const data = state.data;
  const at = state.at;
  const total = data.moves.length;
  document.body.dataset.at = String(at);
  $("at").textContent = at < total ? `before move ${at + 1} of ${total}` : `the end (${total} moves)`;
  $("first").disabled = $("prev").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === total;
  renderDecision(data, at);
  renderBoard(data.positions[at]);
  for (const item of $("moves").children) {
    item.classList.toggle("current", Number(item.dataset.number) === at + 1);
  }
  const current = $("moves").querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function renderDecision(data, at) {
  const box = $("decision");
  box.replaceChildren();
  if (at === data.moves.length) {
    box.textContent = "The hand is over.";
    return;
  }
  const seat = data.positions[at].turn;
  const d = decisionAt(at + 1);
  box.append(el("strong", null, `Seat ${seat} played ${data.moves[at]}`));
  if (!d) {
    box.append(document.createTextNode(reviewed(seat) ? ": its only legal move." : "."));
    return;
  }
  box.dataset.loss = d.loss === null ? "" : String(d.loss);
  if (d.best === d.played) {
    box.append(document.createTextNode(
      `: the search agrees (value ${value(d.best_value)}, ${d.best_visits} of ${d.visits} visits, ` +
      `${d.choices} legal moves).`));
    return;
  }
  const loss = d.loss === null ? "the search never tried it" : `a loss of ${d.loss.toFixed(3)}`;
  box.append(document.createTextNode(
    `: the search preferred ${d.best} (value ${value(d.best_value)}, ${d.best_visits} visits) to ` +
    `the move played (value ${value(d.played_value)}, ${d.played_visits} visits): ${loss}.`));
}

function reviewed(seat) {
  return state.data.review.seats.includes(seat);
}

function renderBoard(position) {
  const board = $("board");
  board.replaceChildren();
  const deck = el("p", "review-deck",
    `stock: ${position.stock} · discard pile: ${position.pile} card(s)` +
    (position.top ? `, ${position.top} on top` : "") +
    (position.phase === "over" ? " · the hand is over" : ` · seat ${position.turn} to ${position.phase}`));
  board.append(deck);
  for (const [side, layouts] of Object.entries(position.melds)) {
    const row = el("div", "review-side");
    row.append(el("h3", null, `Side ${side}`));
    const melds = el("div", "melds");
    for (const layout of layouts) {
      const meld = el("div", "meld");
      for (const card of parseLayout(layout)) {
        meld.append(cardElement(card.name, { size: "small", standsFor: card.standsFor }));
      }
      meld.setAttribute("aria-label", layout);
      melds.append(meld);
    }
    if (!layouts.length) melds.append(el("span", "muted", "no melds"));
    row.append(melds);
    board.append(row);
  }
  position.hands.forEach((cards, seat) => {
    const row = el("div", "review-hand");
    if (seat === position.turn && position.phase !== "over") row.classList.add("to-act");
    const count = cards.length === 1 ? "1 card" : `${cards.length} cards`;
    row.append(el("h3", null, `Seat ${seat} (side ${position.sides[seat]}) · ${count}`));
    const hand = el("div", "cards");
    for (const name of sortHand(cards)) hand.append(cardElement(name, { size: "small" }));
    row.append(hand);
    board.append(row);
  });
}

function go(at) {
  state.at = Math.max(0, Math.min(at, state.data.moves.length));
  render();
}

function setUp(data) {
  state.data = data;
  for (const d of data.review.decisions) state.decisions.set(d.number, d);
  const seats = data.review.seats;
  $("review-info").textContent =
    `table ${tableId} · hand ${hand + 1} · ${data.rules} · ${data.iterations} search iterations a decision`;
  const moves = $("moves");
  data.moves.forEach((text, i) => {
    const d = decisionAt(i + 1);
    const item = el("li", null, `seat ${data.positions[i].turn}: ${text}`);
    item.dataset.number = String(i + 1);
    if (d && d.loss !== null && d.loss > MARKED) {
      item.classList.add("lost");
      item.title = `the search preferred ${d.best} (loss ${d.loss.toFixed(3)})`;
    }
    item.onclick = () => go(i);
    moves.append(item);
  });
  const worst = data.review.decisions
    .filter((d) => d.loss !== null && d.loss > MARKED)
    .sort((a, b) => b.loss - a.loss)
    .slice(0, 10);
  const losses = $("losses");
  for (const d of worst) {
    const item = el("li");
    const link = el("a", null,
      `move ${d.number}, seat ${d.seat}: ${d.played} (the search: ${d.best}), loss ${d.loss.toFixed(3)}`);
    link.href = `#move-${d.number}`;
    link.onclick = (event) => {
      event.preventDefault();
      go(d.number - 1);
    };
    item.append(link);
    losses.append(item);
  }
  if (!worst.length) losses.append(el("li", "muted", "no move the search would have changed by much"));
  const totals = seats.map((seat) => {
    const sum = data.review.decisions
      .filter((d) => d.seat === seat && d.loss !== null)
      .reduce((a, d) => a + d.loss, 0);
    return `seat ${seat}: ${sum.toFixed(3)}`;
  });
  $("totals").textContent = `Total loss by seat: ${totals.join(", ")}.`;
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(state.at - 1);
  $("next").onclick = () => go(state.at + 1);
  $("last").onclick = () => go(data.moves.length);
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") go(state.at + 1);
    else if (event.key === "ArrowLeft") go(state.at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(data.moves.length);
    else return;
    event.preventDefault();
  });
  document.body.dataset.loaded = "true";
  render();
}

async function load() {
  if (!tableId) {
    showError("No table id in the address: /review/TABLE?hand=K.");
    return;
  }
  const answer = await fetch(`/api/tables/${tableId}/review?hand=${hand}`);
  if (answer.status === 503) {
    $("review-info").textContent = "another review is being searched; asking again…";
    setTimeout(load, 1000 * Number(answer.headers.get("Retry-After") || "2"));
    return;
  }
  const body = await answer.json();
  if (!answer.ok) {
    showError(body.error || `the server answered ${answer.status}`);
    return;
  }
  setUp(body);
}

load();
