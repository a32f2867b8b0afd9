// The lobby of burraco serve: choose the rules and who sits where, make the table with
// POST /api/tables (docs/server.md), then open the table page with the seat's token in the
// address's fragment; and the club's list of public tables (GET /api/tables), each free seat
// with its Join button (the seat's join link) and each table with Watch.

import { cardElement } from "./cards.js";
import { joinLink } from "./join.js";

const $ = (id) => document.getElementById(id);
// The presets and their players, from the server (GET /api/presets), which reads the engine's.
const PLAYERS = {};
const FIRST_CHOICE = "italian-2p";
const KINDS = [
  ["human", "a person"],
  ["open", "open seat (anyone with the link)"],
  ["bot:heuristic", "bot: heuristic"],
  ["bot:greedy", "bot: greedy"],
  ["bot:random", "bot: random"],
  ["bot:ismcts:300", "bot: ISMCTS, 300 iterations"],
  ["bot:ismcts:1000", "bot: ISMCTS, 1000 iterations"],
];

// The menu of presets: "italian-2p — Italian, two players", the first choice selected.
async function loadPresets() {
  const answer = await fetch("/api/presets");
  if (!answer.ok) throw new Error(`the server answered ${answer.status} for the presets`);
  const { presets } = await answer.json();
  const select = $("preset");
  select.replaceChildren();
  for (const { name, title, players } of presets) {
    PLAYERS[name] = players;
    const option = document.createElement("option");
    option.value = name;
    option.textContent = `${name} — ${title}`;
    select.append(option);
  }
  if (FIRST_CHOICE in PLAYERS) select.value = FIRST_CHOICE;
  seatRows();
}

function seatRows() {
  const players = PLAYERS[$("preset").value] || 2;
  const holder = $("seats");
  const previous = [...holder.querySelectorAll("select")].map((s) => s.value);
  holder.replaceChildren();
  for (let seat = 0; seat < players; seat++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const label = document.createElement("span");
    label.textContent = seat === 0 ? "seat 0 (you)" : `seat ${seat}`;
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    for (const [value, text] of KINDS) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      select.append(option);
    }
    select.value = previous[seat] || (seat === 0 ? "human" : "bot:heuristic");
    row.append(label, select);
    holder.append(row);
  }
}

function tableLink(id, seat, token) {
  const fragment = new URLSearchParams({ seat: String(seat), token });
  return `/table/${encodeURIComponent(id)}#${fragment}`;
}

async function create(event) {
  event.preventDefault();
  const error = $("error");
  error.hidden = true;
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const body = { preset: $("preset").value, seats, match: $("match").checked, public: $("public").checked };
  $("create").disabled = true;
  try {
    const answer = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const made = await answer.json();
    if (!answer.ok) throw new Error(made.error || `the server answered ${answer.status}`);
    const humans = Object.keys(made.tokens).map(Number).sort((a, b) => a - b);
    const open = Object.keys(made.join).map(Number).sort((a, b) => a - b);
    if (made.public) refresh();
    if (humans.length === 1 && open.length === 0) {
      location.href = tableLink(made.id, humans[0], made.tokens[String(humans[0])]);
      return;
    }
    const links = $("made-links");
    links.replaceChildren();
    for (const seat of humans) {
      const line = document.createElement("div");
      const link = document.createElement("a");
      link.href = tableLink(made.id, seat, made.tokens[String(seat)]);
      link.textContent = `play seat ${seat}`;
      link.target = seat === humans[0] ? "_self" : "_blank";
      line.append(link);
      links.append(line);
    }
    for (const seat of open) {
      // No secret in a join link: the first who opens it takes the seat.
      const line = document.createElement("div");
      line.className = "join-link";
      const label = document.createElement("label");
      label.textContent = `join link of open seat ${seat}`;
      const address = document.createElement("input");
      address.readOnly = true;
      address.value = joinLink(made.id, seat);
      address.id = `join-${seat}`;
      label.htmlFor = address.id;
      address.onfocus = () => address.select();
      line.append(label, address);
      links.append(line);
    }
    const watch = document.createElement("div");
    const link = document.createElement("a");
    link.href = `/table/${encodeURIComponent(made.id)}`;
    link.textContent = "watch the table (no token)";
    watch.append(link);
    links.append(watch);
    $("made").hidden = false;
  } catch (problem) {
    error.textContent = String(problem.message || problem);
    error.hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

// ---- the public tables ------------------------------------------------------------------------

function seatText(seat) {
  if (seat.free) return `seat ${seat.seat}: free`;
  if (seat.kind === "bot") return `seat ${seat.seat}: bot ${seat.policy}`;
  const who = seat.played_by && seat.played_by !== "person" ? ` (played by ${seat.played_by})` : "";
  return `seat ${seat.seat}: a person${seat.connected ? ", here" : ""}${who}`;
}

function button(text, label, go) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  node.setAttribute("aria-label", label);
  node.onclick = () => (location.href = go);
  return node;
}

function listedTable(table) {
  const item = document.createElement("li");
  item.className = "public-table";
  item.dataset.table = table.id;
  const title = document.createElement("div");
  title.className = "title";
  const where = table.status === "waiting"
    ? `waiting for ${table.open_seats.length} ${table.open_seats.length === 1 ? "person" : "people"}`
    : `playing hand ${table.hand + 1}`;
  title.textContent = `${table.rules} · ${table.match ? "a match" : "one hand"} · ${where}`;
  item.append(title);
  if (table.scores) {
    const scores = document.createElement("div");
    scores.className = "info";
    scores.textContent = `scores ${table.scores.scores.join(" – ")} (to ${table.scores.target})`;
    item.append(scores);
  }
  const seats = document.createElement("ul");
  seats.className = "listed-seats";
  for (const seat of table.seats) {
    const line = document.createElement("li");
    line.textContent = seatText(seat);
    if (seat.free) line.className = "free";
    seats.append(line);
  }
  item.append(seats);
  const actions = document.createElement("div");
  actions.className = "actions";
  const name = `table ${table.id} (${table.rules})`;
  for (const seat of table.open_seats) {
    const join = button(`Join seat ${seat}`, `Join seat ${seat} of ${name}`, joinLink(table.id, seat));
    join.className = "primary";
    join.dataset.join = String(seat);
    actions.append(join);
  }
  const watch = button("Watch", `Watch ${name}`, table.watch);
  watch.dataset.watch = table.id;
  actions.append(watch);
  item.append(actions);
  return item;
}

async function refresh() {
  const status = $("public-status");
  try {
    const answer = await fetch("/api/tables");
    const body = await answer.json();
    if (!answer.ok) throw new Error(body.error || `the server answered ${answer.status}`);
    $("public-list").replaceChildren(...body.tables.map(listedTable));
    status.textContent = body.total === 0
      ? "No public table is being played: make one above, with Public ticked."
      : `${body.total} public table${body.total === 1 ? "" : "s"}` +
        (body.total > body.tables.length ? `, the ${body.tables.length} newest shown` : "");
  } catch (problem) {
    status.textContent = `The list could not be read: ${problem.message || problem}`;
  }
  document.body.dataset.listed = String(Date.now());
}

["Ah", "Ks", "Qd", "Jc", "2h", "Jk"].forEach((name, i) => {
  const card = cardElement(name);
  card.style.setProperty("--i", String(i));
  $("fan").append(card);
});
$("preset").addEventListener("change", seatRows);
$("new-table").addEventListener("submit", create);
$("refresh").addEventListener("click", refresh);
seatRows();
refresh();
// The list again every 10 seconds while the page is shown.
setInterval(() => {
  if (document.visibilityState === "visible") refresh();
}, 10000);
loadPresets().catch((problem) => {
  $("error").textContent = String(problem.message || problem);
  $("error").hidden = false;
});
