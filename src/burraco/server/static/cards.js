// Cards and moves of the browser table: card names as the engine writes them ("Qh", "Tc", "Jk",
// docs/notation.md), their faces drawn as DOM elements, and the move texts of the legal list.

export const SUIT_SYMBOL = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const SUIT_NAME = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_LABEL = { T: "10" };
const RANK_NAME = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
const RANK_ORDER = "3456789TJQKA"; // natural cards in a sorted hand; twos and jokers go last
const SUIT_ORDER = "shcd"; // spades, hearts, clubs, diamonds: the colours alternate

export function isJoker(name) {
  return name === "Jk";
}

export function isRed(name) {
  const suit = name[1];
  return suit === "h" || suit === "d";
}

// A wild-looking card: a joker or a two (a two may be natural in a run of its suit, the meld
// layout tells; in the hand it is drawn as a wild).
export function isWildKind(name) {
  return isJoker(name) || name[0] === "2";
}

export function rankLabel(rank) {
  return RANK_LABEL[rank] || rank;
}

// A card's name for a screen reader: "queen of hearts", "10 of clubs", "joker".
export function cardLabel(name) {
  if (isJoker(name)) return "joker";
  return `${RANK_NAME[name[0]] || name[0]} of ${SUIT_NAME[name[1]] || name[1]}`;
}

// What a wild stands for, in words: "4 of diamonds", or "any queen" in a set.
function standsForWords(text) {
  if (text.length === 1) return `a ${RANK_NAME[text] || text}`;
  return cardLabel(text);
}

// What a wild stands for, as the layout writes it ("4d", or "K" in a set), for a label.
export function standsForLabel(text) {
  if (text.length === 1) return rankLabel(text);
  return rankLabel(text[0]) + SUIT_SYMBOL[text[1]];
}

function sortKey(name) {
  if (isJoker(name)) return [3, 0, 0];
  if (name[0] === "2") return [2, SUIT_ORDER.indexOf(name[1]), 0];
  return [1, SUIT_ORDER.indexOf(name[1]), RANK_ORDER.indexOf(name[0])];
}

// A hand sorted for the eye: by suit (alternating colours), each suit 3 to ace, then the twos,
// then the jokers.
export function sortHand(names) {
  return names.slice().sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A card face: rank and suit in the corner, a large suit (or star) in the other. `size` is "",
// "small" or "tiny"; `standsFor` marks a wild with the card it stands for in a meld. The suit
// symbol is always drawn, and each suit has its own colour (four colours: spades black, hearts
// red, clubs green, diamonds blue), so that no suit is told by colour alone or by red and black.
// The face is an image for a screen reader, named by `cardLabel`.
export function cardElement(name, { size = "", standsFor = null } = {}) {
  const card = el("div", "card");
  if (size) card.classList.add(size);
  card.dataset.card = name;
  card.setAttribute("role", "img");
  let label = cardLabel(name);
  if (isJoker(name)) {
    card.classList.add("joker");
    const corner = el("div", "corner");
    corner.append(el("span", "r", "J"), el("span", "s", "\u2605"));
    card.append(corner, el("div", "pip", "\u2605"));
    card.title = "joker";
  } else {
    if (isRed(name)) card.classList.add("red");
    card.classList.add(`suit-${name[1]}`);
    if (name[0] === "2") card.classList.add("two");
    const corner = el("div", "corner");
    corner.append(el("span", "r", rankLabel(name[0])), el("span", "s", SUIT_SYMBOL[name[1]]));
    card.append(corner, el("div", "pip", SUIT_SYMBOL[name[1]]));
    card.title = name;
  }
  if (standsFor) {
    // "=4" over "\u2666": narrow enough to show on the strip of a card overlapped in a meld.
    const tag = el("span", "wild-as");
    tag.append(el("span", null, "=" + rankLabel(standsFor[0])));
    if (standsFor.length === 2) {
      tag.append(el("span", null, SUIT_SYMBOL[standsFor[1]]));
      tag.classList.add(`suit-${standsFor[1]}`);
    }
    card.append(tag);
    card.classList.add("wild");
    card.title = `${card.title}, standing for ${standsFor}`;
    label += `, standing for ${standsForWords(standsFor)}`;
  }
  card.setAttribute("aria-label", label);
  return card;
}

export function backElement(text, size = "") {
  const card = el("div", "card back");
  card.setAttribute("aria-hidden", "true");
  if (size) card.classList.add(size);
  if (text !== undefined) card.append(el("span", "count-in", String(text)));
  return card;
}

// A meld's layout, str(meld) ("Jk(=4d) 5d 6d", "8h 8h 8s Jk(=8)"), as its cards in table order,
// each with what it stands for when it is a wild.
export function parseLayout(layout) {
  return layout
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => {
      const found = /^([A-Za-z0-9]{2})(?:\(=([A-Za-z0-9]{1,2})\))?/.exec(token);
      if (!found) return { name: token, standsFor: null };
      return { name: found[1], standsFor: found[2] || null };
    });
}

// A move text of the legal list as its parts: {kind, index, cards, text}.
export function parseMove(text) {
  const words = text.split(/\s+/).filter(Boolean);
  const kind = words[0];
  if (kind === "add") return { kind, index: Number(words[1]), cards: words.slice(2), text };
  return { kind, index: null, cards: words.slice(1), text };
}

// The same multiset of cards, whatever the order.
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = a.slice().sort();
  const y = b.slice().sort();
  return x.every((name, i) => name === y[i]);
}
