// The lobby of burraco serve: choose the rules and who sits where, make the table with
// POST /api/tables (docs/server.md), then open the table page with the seat's token in the
// address's fragment.

import { cardElement } from "./cards.js";

const $ = (id) => document.getElementById(id);
// The presets and their players, from the server (GET /api/presets), which reads the engine's.
const PLAYERS = {};
const FIRST_CHOICE = "italian-2p";
const KINDS = [
  ["human", "a person"],
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
  const body = { preset: $("preset").value, seats, match: $("match").checked };
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
    if (humans.length === 1) {
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

["Ah", "Ks", "Qd", "Jc", "2h", "Jk"].forEach((name, i) => {
  const card = cardElement(name);
  card.style.setProperty("--i", String(i));
  $("fan").append(card);
});
$("preset").addEventListener("change", seatRows);
$("new-table").addEventListener("submit", create);
seatRows();
loadPresets().catch((problem) => {
  $("error").textContent = String(problem.message || problem);
  $("error").hidden = false;
});
