// SVG card faces for both decks, built with DOM calls (no inline markup, no images).
//
// Standard cards (Game Flip Flop, Three Thirteen): rank and suit symbol in the corner, a large
// symbol in the middle; hearts and diamonds in a dark red that keeps 4.5:1 contrast on white.
// Triple Topper cards (Triple Tunk, docs/rules.md TT-1): the shape drawn in its colour with the
// number inside; "?" is printed as it is (it counts 5, TT-2). Wild attributes (black colour,
// blob shape, TT-3) and Three Thirteen's wild rank (T13-1) get a striped "WILD" band.

import { COLOUR_NAMES, SHAPE_NAMES, SUIT_NAMES, SUIT_SYMBOLS, parseStandardCard, parseTopperCard } from "./client/tunk.js";

const NS = "http://www.w3.org/2000/svg";
const RED = "#a4001d";
const INK = "#1a1a1a";
const FILL = { R: "#c8102e", Y: "#f2c200", G: "#1e7b34", B: "#1f4fb8", K: "#111111" };
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function frame(svg, wild) {
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#ffffff", stroke: "#444", "stroke-width": 1.5 }));
  if (wild) {
    svg.append(el("rect", { x: 1, y: 66, width: 58, height: 17, rx: 0, fill: "url(#wild-stripes)" }));
    svg.append(el("rect", { x: 14, y: 69, width: 32, height: 11, rx: 2, fill: "#ffffff" }));
    svg.append(el("text", { x: 30, y: 78, "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: INK }, "WILD"));
  }
}

function shell(label) {
  // The stripes pattern (#wild-stripes) is defined once in index.html.
  const svg = el("svg", { viewBox: "0 0 60 84", width: 60, height: 84, role: "img", "aria-label": label, focusable: "false" });
  svg.append(el("title", {}, label));
  return svg;
}

/** A spoken name: "10 of hearts", "black blob ? (wild colour, wild shape)". */
export function cardLabel(game, code, wildRank = null) {
  if (game === "triple-tunk") {
    const card = parseTopperCard(code);
    const wilds = [card.wildColour && "wild colour", card.wildShape && "wild shape"].filter(Boolean);
    const number = card.number === "?" ? "question mark" : card.number;
    return `${COLOUR_NAMES[card.colour]} ${SHAPE_NAMES[card.shape]} ${number}${wilds.length ? ` (${wilds.join(", ")})` : ""}`;
  }
  const card = parseStandardCard(code);
  const wild = wildRank && card.rank === wildRank ? " (wild)" : "";
  return `${RANK_WORDS[card.rank] ?? card.rank} of ${SUIT_NAMES[card.suit]}${wild}`;
}

function standardFace(code, wildRank) {
  const card = parseStandardCard(code);
  const colour = card.suit === "H" || card.suit === "D" ? RED : INK;
  const wild = Boolean(wildRank) && card.rank === wildRank;
  const svg = shell(cardLabel("standard", code, wildRank));
  frame(svg, wild);
  const symbol = SUIT_SYMBOLS[card.suit];
  svg.append(el("text", { x: 6, y: 19, "font-size": 16, "font-weight": 700, fill: colour }, card.rank));
  svg.append(el("text", { x: 6, y: 34, "font-size": 14, fill: colour }, symbol));
  svg.append(el("text", { x: 34, y: wild ? 58 : 64, "text-anchor": "middle", "font-size": 32, fill: colour }, symbol));
  return svg;
}

function shapePath(shape, fill, stroke) {
  const common = { fill, stroke, "stroke-width": 2 };
  switch (shape) {
    case "C": return el("circle", { cx: 30, cy: 40, r: 17, ...common });
    case "H": return el("path", { d: "M30 57 L13 39 A9 9 0 0 1 30 27 A9 9 0 0 1 47 39 Z", ...common });
    case "T": return el("path", { d: "M30 21 L49 55 L11 55 Z", ...common });
    case "S": return el("rect", { x: 14, y: 24, width: 32, height: 32, ...common });
    default: return el("path", { d: "M18 30 C20 18 36 18 42 26 C52 30 50 46 42 52 C34 60 18 58 14 48 C10 40 16 36 18 30 Z", ...common });
  }
}

function topperFace(code) {
  const card = parseTopperCard(code);
  const svg = shell(cardLabel("triple-tunk", code));
  frame(svg, card.wild);
  const fill = FILL[card.colour];
  const stroke = card.colour === "Y" ? "#6b5600" : INK;
  svg.append(shapePath(card.shape, fill, stroke));
  const light = card.colour === "Y";
  svg.append(el("circle", { cx: 30, cy: 42, r: 9, fill: light ? INK : "#ffffff" }));
  svg.append(el("text", { x: 30, y: 47, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: light ? "#ffffff" : INK }, card.number));
  svg.append(el("text", { x: 5, y: 14, "font-size": 11, "font-weight": 700, fill: INK }, card.code));
  return svg;
}

/**
 * An SVG face of ``code`` in ``game``'s deck; ``wildRank`` marks Three Thirteen's wild rank.
 * @returns {SVGSVGElement}
 */
export function cardFace(game, code, wildRank = null) {
  return game === "triple-tunk" ? topperFace(code) : standardFace(code, wildRank);
}

/** Whether ``code`` is wild in ``game`` (TT-3 black or blob; T13-1 the round's rank). */
export function isWild(game, code, wildRank = null) {
  if (game === "triple-tunk") return parseTopperCard(code).wild;
  return Boolean(wildRank) && parseStandardCard(code).rank === wildRank;
}

/** Every card code of ``game``'s deck (one deck), in a fixed order. */
export function deckCodes(game) {
  const out = [];
  if (game === "triple-tunk") {
    for (const c of "RYGBK") for (const s of "CHTSB") for (const n of "1234?") out.push(c + s + n);
  } else {
    for (const s of "SHDC") for (const r of ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]) out.push(r + s);
  }
  return out;
}
