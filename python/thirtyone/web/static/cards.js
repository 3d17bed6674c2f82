// Cards drawn as SVG (no image, no font from elsewhere), each with its name as text: a <title>
// and an accessible name ("7 of hearts"); and the words for cards used across the page.

const SVG = "http://www.w3.org/2000/svg";

export const SUITS = {
  C: { name: "clubs", symbol: "♣" },
  D: { name: "diamonds", symbol: "♦" },
  H: { name: "hearts", symbol: "♥" },
  S: { name: "spades", symbol: "♠" },
};

const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

// The suits' shapes in a 100 by 100 box.
const SHAPES = {
  H: "M50 92 C38 78 6 60 6 34 C6 16 19 6 32 6 C41 6 47 12 50 20 C53 12 59 6 68 6 C81 6 94 16 94 34 C94 60 62 78 50 92 Z",
  D: "M50 4 L88 50 L50 96 L12 50 Z",
  S: "M50 4 C62 22 92 38 92 60 C92 76 78 84 66 80 C60 78 56 74 54 70 C55 80 58 88 64 95 L36 95 C42 88 45 80 46 70 C44 74 40 78 34 80 C22 84 8 76 8 60 C8 38 38 22 50 4 Z",
  C: "M50 6 C63 6 72 16 72 28 C72 36 68 42 62 46 C66 44 70 43 74 43 C86 43 95 52 95 64 C95 76 86 85 74 85 C64 85 57 79 54 72 C55 82 58 89 64 95 L36 95 C42 89 45 82 46 72 C43 79 36 85 26 85 C14 85 5 76 5 64 C5 52 14 43 26 43 C30 43 34 44 38 46 C32 42 28 36 28 28 C28 16 37 6 50 6 Z",
};

export function rank(card) {
  return card.slice(0, -1);
}

export function suit(card) {
  return card.slice(-1);
}

/** "7H", "10D": a card as the page writes it (ten as 10). */
export function label(card) {
  const r = rank(card);
  return (r === "T" ? "10" : r) + suit(card);
}

/** The Oracle's words with every ten written as the page writes it: "put down the TD" reads
 * "put down the 10D" (the core names a ten T, as the terminal does). */
export function tensWritten(text) {
  return text.replace(/\bT(?=[CDHS]\b)/g, "10");
}

/** "7 of hearts", "queen of spades". */
export function cardName(card) {
  const r = rank(card);
  return `${RANK_NAMES[r] || r} of ${SUITS[suit(card)].name}`;
}

/** "7H, 10D and QS". */
export function labels(cards) {
  const shown = cards.map(label);
  return shown.length <= 1 ? shown.join("") : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

function node(tag, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== null) element.textContent = text;
  return element;
}

function shape(s, x, y, size) {
  return node("path", {
    d: SHAPES[s],
    class: `suit-${s}`,
    transform: `translate(${x} ${y}) scale(${size / 100})`,
  });
}

/** A card's face, 100 by 140 units. */
export function cardSvg(card) {
  const s = suit(card);
  const shown = rank(card) === "T" ? "10" : rank(card);
  const svg = node("svg", {
    viewBox: "0 0 100 140",
    class: `card face suit-of-${s}`,
    role: "img",
    "aria-label": cardName(card),
    "data-card": card,
  });
  svg.append(node("title", {}, `${cardName(card)} (${label(card)})`));
  svg.append(node("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, class: "card-face" }));
  const corner = (transform) => {
    const g = node("g", transform ? { transform } : {});
    g.append(node("text", { x: 8, y: 27, "font-size": shown.length > 1 ? 22 : 26, class: `suit-${s}` }, shown));
    g.append(shape(s, 8, 32, 16));
    return g;
  };
  svg.append(corner(null));
  svg.append(corner("rotate(180 50 70)"));
  svg.append(shape(s, 27, 46, 46));
  return svg;
}

/** A card's back (a card nobody may see). */
export function backSvg(title = "a card face down") {
  const svg = node("svg", { viewBox: "0 0 100 140", class: "card back", role: "img", "aria-label": title });
  svg.append(node("title", {}, title));
  svg.append(node("rect", { x: 2, y: 2, width: 96, height: 136, rx: 9, class: "card-back-face" }));
  for (let i = 0; i < 6; i++) {
    svg.append(node("rect", { x: 10 + i * 4, y: 10 + i * 4, width: 80 - i * 8, height: 120 - i * 8, rx: 5, class: "card-back-pattern" }));
  }
  return svg;
}
