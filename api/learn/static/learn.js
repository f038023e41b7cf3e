// The teaching page's behaviour. Every answer comes from the public /v1 API through the
// JavaScript client (clients/js/tunk.js, served at /learn/client/tunk.js): a third-party
// teaching tool can do exactly the same. Rule ids cited in answers open their text from
// /v1/rules/{id} in a side panel.

import { GAMES, TunkClient, TunkError, parseCard, parseHand } from "./client/tunk.js";
import { cardFace, cardLabel, deckCodes } from "./cards.js";

const api = new TunkClient({ baseUrl: "" });
const $ = (id) => document.getElementById(id);
const RULE_ID = /\b(?:GFF|TT|T13|C)-\d+\b/g;

const state = {
  game: "game-flip-flop",
  round: 3,
  players: 3,
  seed: 1,
  typed: null, // the typed hand's text, or null for a seeded deal
  loose: [], // cards not in a meld
  melds: [], // the learner's groups
  selected: new Set(),
  stock: [],
  pile: [], // discard pile, top first
  catalogue: null, // GET /v1/games, by slug
};

// --- small DOM helpers -------------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Text with every rule id turned into a button that opens the rule's text. */
function withRules(text) {
  const out = [];
  let last = 0;
  for (const match of String(text).matchAll(RULE_ID)) {
    out.push(text.slice(last, match.index));
    out.push(ruleButton(match[0], match[0]));
    last = match.index + match[0].length;
  }
  out.push(String(text).slice(last));
  return out;
}

function ruleButton(id, label = `Rule ${id}`) {
  return h("button", { type: "button", class: "rule-link", "data-rule": id, onclick: (e) => openRule(id, e.currentTarget) }, label);
}

function wildRank() {
  if (state.game !== "three-thirteen" || !state.catalogue) return null;
  const row = state.catalogue[state.game].hand_sizes.find((r) => r.round === state.round);
  return row ? row.wild_rank : null;
}

function faces(codes, small = false) {
  return h("span", { class: small ? "cards small" : "cards", role: "list" },
    codes.map((code) => {
      const item = h("span", { role: "listitem" });
      item.append(cardFace(state.game, code, wildRank()));
      return item;
    }));
}

function pct(x) {
  return `${Math.round(x * 100)}%`;
}

// --- the deal ----------------------------------------------------------------------------------

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function dealtSize() {
  const rows = state.catalogue[state.game].hand_sizes;
  const row = state.game === "three-thirteen" ? rows.find((r) => r.round === state.round) : rows[0];
  return row.dealt;
}

/** Shuffle one deck with the lesson's seed (the same seed, game and round give the same hand). */
function deal() {
  const deck = deckCodes(state.game);
  // The round is part of the key in Three Thirteen only, where it changes the deal.
  const random = mulberry32(state.game === "three-thirteen" ? state.seed * 31 + state.round : state.seed);
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  const n = dealtSize();
  state.loose = deck.slice(0, n);
  state.pile = [deck[n]];
  state.stock = deck.slice(n + 1);
  state.melds = [];
  state.selected.clear();
}

function useTyped(text) {
  const cards = parseHand(state.game, text);
  const used = new Set(cards);
  state.loose = cards;
  state.melds = [];
  state.selected.clear();
  const rest = deckCodes(state.game).filter((c) => !used.has(c));
  const random = mulberry32(state.seed);
  for (let i = rest.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  state.pile = [rest[0]];
  state.stock = rest.slice(1);
}

function lessonUrl() {
  const q = new URLSearchParams({ game: state.game, seed: String(state.seed), players: String(state.players) });
  if (state.game === "three-thirteen") q.set("round", String(state.round));
  if (state.typed) q.set("hand", state.typed);
  return `/learn/?${q}`;
}

function readUrl() {
  const q = new URLSearchParams(location.search);
  if (GAMES[q.get("game")]) state.game = q.get("game");
  const seed = Number.parseInt(q.get("seed") ?? "", 10);
  if (Number.isInteger(seed) && seed >= 0) state.seed = seed;
  const round = Number.parseInt(q.get("round") ?? "", 10);
  if (round >= 1 && round <= 11) state.round = round;
  const players = Number.parseInt(q.get("players") ?? "", 10);
  if (players >= 2 && players <= 8) state.players = players;
  state.typed = q.get("hand");
}

// --- rendering ---------------------------------------------------------------------------------

function cardButton(code) {
  const selected = state.selected.has(code);
  const button = h("button", {
    type: "button", class: "card", draggable: "true", "data-card": code,
    "aria-pressed": selected ? "true" : "false",
    "aria-label": cardLabel(state.game, code, wildRank()),
    onclick: () => toggle(code),
    onkeydown: (e) => cardKey(e, code),
    ondragstart: (e) => { e.dataTransfer.setData("text/plain", code); e.dataTransfer.effectAllowed = "move"; },
  });
  button.append(cardFace(state.game, code, wildRank()));
  return button;
}

function dropZone(node, target) {
  node.addEventListener("dragover", (e) => { e.preventDefault(); node.classList.add("over"); });
  node.addEventListener("dragleave", () => node.classList.remove("over"));
  node.addEventListener("drop", (e) => {
    e.preventDefault();
    node.classList.remove("over");
    const code = e.dataTransfer.getData("text/plain");
    if (code) moveCard(code, target);
  });
}

function render() {
  const hand = $("hand");
  hand.replaceChildren(...state.loose.map(cardButton));
  if (!state.loose.length) hand.append(h("span", { class: "note" }, "Every card is in a meld."));
  const melds = $("melds");
  melds.replaceChildren(...state.melds.map((cards, i) => {
    const zone = h("div", { class: "cards zone", role: "group", "aria-label": `Meld ${i + 1}`, "data-zone": String(i) },
      cards.map(cardButton));
    dropZone(zone, i);
    return h("section", { class: "meld", "aria-labelledby": `meld-h-${i}` },
      h("h3", { id: `meld-h-${i}` }, `Meld ${i + 1}`),
      zone,
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => addSelected(i), "aria-label": `Add selected cards to meld ${i + 1}` }, "Add selected"),
        h("button", { type: "button", onclick: () => returnMeld(i), "aria-label": `Return meld ${i + 1} to the hand` }, "Return to hand")));
  }));
  const newZone = h("div", { class: "cards zone", "aria-hidden": "true", "data-zone": "new" }, h("span", { class: "note" }, "Drop a card here to start a new meld"));
  dropZone(newZone, state.melds.length);
  melds.append(newZone);
  $("pile").replaceChildren(...state.pile.slice(0, 6).map((code) => {
    const item = h("span", { role: "listitem" });
    item.append(cardFace(state.game, code, wildRank()));
    return item;
  }));
  const wr = wildRank();
  $("wild-note").textContent = state.game === "three-thirteen"
    ? `Round ${state.round}: ${dealtSize()} cards dealt; ${wr}s are wild (T13-1).`
    : state.game === "triple-tunk" ? "Black cards and blob cards are wild (TT-3); ? counts 5 (TT-2)." : "";
  const examples = state.game === "triple-tunk"
    ? { hand: "RH1 RH2 RH3 YT4 KB?", table: "1: GC1 GC2 GC3", picked: "1: YS2" }
    : { hand: "7H 8H 9H 7S 7D", table: "1: 10S JS QS", picked: "1: 5C" };
  $("typed-hand").placeholder = examples.hand;
  $("table-melds").placeholder = examples.table;
  $("picked").placeholder = examples.picked;
  $("share").href = lessonUrl();
  $("early").hidden = state.game === "three-thirteen";
  $("early").textContent = state.game === "triple-tunk" ? "Early tunk? (TT-9)" : "49 / 50? (GFF-4)";
  $("knock").hidden = state.game === "three-thirteen";
  $("knock").textContent = state.game === "triple-tunk" ? "Knock?" : "Drop?";
}

function setupControls() {
  $("game").value = state.game;
  $("seed").value = String(state.seed);
  $("players").value = String(state.players);
  const info = state.catalogue[state.game];
  $("players").min = String(info.players.min);
  $("players").max = String(info.players.max);
  const isT13 = state.game === "three-thirteen";
  $("round-label").hidden = !isT13;
  if (isT13) {
    $("round").replaceChildren(...info.hand_sizes.map((r) =>
      h("option", { value: String(r.round) }, `Round ${r.round}: ${r.dealt} cards, ${r.wild_rank}s wild`)));
    $("round").value = String(state.round);
  }
}

// --- moving cards ------------------------------------------------------------------------------

function take(code) {
  state.loose = state.loose.filter((c) => c !== code);
  state.melds = state.melds.map((m) => m.filter((c) => c !== code));
}

function tidy() {
  state.melds = state.melds.filter((m) => m.length);
}

function moveCard(code, target) {
  const melds = state.melds.length;
  take(code);
  if (target === "hand") state.loose.push(code);
  else if (target >= melds) state.melds.push([code]);
  else state.melds[target].push(code);
  state.selected.delete(code);
  tidy();
  render();
  focusCard(code);
}

function focusCard(code) {
  const node = document.querySelector(`[data-card="${CSS.escape(code)}"]`);
  if (node) node.focus();
}

function toggle(code) {
  if (state.selected.has(code)) state.selected.delete(code);
  else state.selected.add(code);
  render();
  focusCard(code);
}

function cardKey(event, code) {
  if (/^[1-9]$/.test(event.key)) {
    event.preventDefault();
    moveCard(code, Math.min(Number(event.key) - 1, state.melds.length));
  } else if (event.key === "0") {
    event.preventDefault();
    moveCard(code, "hand");
  }
}

function newMeld() {
  const picked = [...state.selected];
  if (!picked.length) return say("Select one or more cards first (click them, or Tab to a card and press Space).");
  picked.forEach(take);
  state.melds.push(picked);
  state.selected.clear();
  tidy();
  render();
  $("melds").querySelector(`#meld-h-${state.melds.length - 1}`)?.scrollIntoView({ block: "nearest" });
  $("check").focus();
}

function addSelected(i) {
  const picked = [...state.selected];
  if (!picked.length) return say("Select one or more cards first.");
  picked.forEach(take);
  state.melds[i]?.push(...picked);
  state.selected.clear();
  tidy();
  render();
}

function returnMeld(i) {
  state.loose.push(...(state.melds[i] ?? []));
  state.melds.splice(i, 1);
  render();
}

/** A hint to the learner (nothing was asked of the service). */
function say(text) {
  const box = $("error");
  box.replaceChildren(h("p", {}, h("strong", {}, "Note: "), text));
  box.hidden = false;
}

// --- asking the service ------------------------------------------------------------------------

function allCards() {
  return [...state.loose, ...state.melds.flat()];
}

/** Lines of "seat: cards" from a text box, as [seat, cards]; ``what`` names the box in errors. */
function seatLines(id, what, example) {
  const out = [];
  $(id).value.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const match = /^\s*(\d+)\s*:\s*(.+)$/.exec(line);
    if (!match) {
      const message = `${what}, line ${i + 1}: write it as "seat: cards", e.g. ${example}`;
      throw new TunkError(message, { errors: { [what]: [message] }, sent: false });
    }
    try {
      out.push([Number(match[1]), parseHand(state.game, match[2])]);
    } catch (error) {
      const message = `${what}, line ${i + 1}: ${error.message}`;
      throw new TunkError(message, { errors: { [what]: [message] }, sent: false });
    }
  });
  return out;
}

function tableMelds() {
  return seatLines("table-melds", "table", "1: 10S JS QS").map(([owner, cards]) => ({ owner, cards }));
}

function opponents() {
  return seatLines("picked", "opponents", "1: 5C").map(([seat, cards]) => ({ seat, picked_up: cards }));
}

function base(extra = {}) {
  const body = { hand: allCards(), players: state.players, ...extra };
  if (state.game === "three-thirteen") body.round = state.round;
  return body;
}

function context() {
  const table = tableMelds();
  const opp = opponents();
  return { discard_pile: state.pile, ...(table.length ? { table } : {}), ...(opp.length ? { opponents: opp } : {}) };
}

function showError(error) {
  const box = $("error");
  const lines = error instanceof TunkError ? error.messages() : [String(error?.message ?? error)];
  let heading = "Something went wrong.";
  if (error instanceof TunkError) {
    if (!error.sent) heading = "Not sent: the request needs fixing first.";
    else if (error.status === 0) heading = "The service could not be reached.";
    else if (error.status === 429) heading = "Too many requests: wait a moment and try again.";
    else if (error.status >= 500) heading = `The service failed (HTTP ${error.status}); try again.`;
    else heading = `The service refused the request (HTTP ${error.status}${error.title ? `, ${error.title}` : ""}):`;
  }
  box.replaceChildren(h("p", {}, h("strong", {}, heading)), h("ul", {}, lines.map((l) => h("li", {}, withRules(l)))));
  box.hidden = false;
}

async function ask(label, work) {
  $("error").hidden = true;
  const answer = $("answer");
  answer.setAttribute("aria-busy", "true");
  answer.replaceChildren(h("p", { class: "note" }, `${label}…`));
  try {
    const nodes = await work();
    answer.replaceChildren(h("h3", { id: "answer-title" }, label), ...nodes);
  } catch (error) {
    answer.replaceChildren(h("p", { class: "note" }, `${label}: no answer (see the message above).`));
    showError(error);
  } finally {
    answer.removeAttribute("aria-busy");
  }
}

function gameApi() {
  return api.game(state.game);
}

async function check() {
  await ask("Check", async () => {
    if (!state.melds.length) throw new TunkError("Group some cards into a meld first (select them, then New meld from selected).", { sent: false });
    const answer = await gameApi().arrangement(base({ melds: state.melds, ...(tableMelds().length ? { table: tableMelds() } : {}) }));
    const items = answer.melds.map((m, i) => h("li", { class: m.valid ? "ok" : "bad", "data-valid": String(m.valid) },
      h("p", {}, h("strong", {}, `Meld ${i + 1}: `), h("span", { class: m.valid ? "ok-text" : "bad-text" }, m.valid ? "legal" : "not a meld"), " ",
        m.rule ? ruleButton(m.rule) : null),
      faces(m.cards, true),
      h("p", { class: "reason" }, withRules(m.reason))));
    return [
      h("ul", { class: "verdicts" }, items),
      h("p", {}, `Deadwood: ${answer.deadwood_points} points; the best arrangement leaves ${answer.best_deadwood_points}.`),
      h("p", { class: "explanation" }, withRules(answer.explanation)),
    ];
  });
}

/** Why each wild card in a Triple Tunk meld counts (TT-3): the attribute it stands in for. */
function topperProvenance(meld) {
  const cards = meld.cards.map((c) => parseCard("triple-tunk", c));
  const plain = (attr, wildFlag) => cards.filter((c) => !c[wildFlag]).map((c) => c[attr]);
  const out = [];
  for (const card of cards.filter((c) => c.wild)) {
    const parts = [];
    if (card.wildColour) {
      const colours = [...new Set(plain("colour", "wildColour"))];
      parts.push(meld.matches.colour && colours.length === 1 ? `black stands for ${({ R: "red", Y: "yellow", G: "green", B: "blue" })[colours[0]]}` : "black colour is wild");
    }
    if (card.wildShape) {
      const shapes = [...new Set(plain("shape", "wildShape"))];
      parts.push(meld.matches.shape && shapes.length === 1 ? `blob stands for ${({ C: "circle", H: "heart", T: "triangle", S: "square" })[shapes[0]]}` : "blob shape is wild");
    }
    out.push(`${card.code}: ${parts.join("; ")}${meld.sequence ? `, number ${card.number} in the sequence` : ""} (TT-3)`);
  }
  return out;
}

function bestMelds(best) {
  return best.melds.map((m, i) => {
    const provenance = state.game === "triple-tunk"
      ? topperProvenance(m)
      : (m.wilds ?? []).map((w) => `${w.card} stands for ${w.stands_for} (T13-4)`);
    const kind = m.kind ? `${m.kind}` : [m.sequence ? "sequence" : null, m.special ? "special" : null,
      ...Object.entries(m.matches ?? {}).filter(([, v]) => v).map(([k]) => `same ${k}`)].filter(Boolean).join(", ");
    return h("div", { class: "best-meld-wrap", "data-best-meld": String(i) },
      h("div", { class: "best-meld" }, h("strong", {}, `Meld ${i + 1}`), faces(m.cards, true), h("span", {}, kind)),
      provenance.length ? h("ul", { class: "provenance", "aria-label": `Wild cards in meld ${i + 1}` },
        provenance.map((p) => h("li", { "data-provenance": "" }, withRules(p)))) : null);
  });
}

async function showBest() {
  await ask("Best arrangement", async () => {
    const table = tableMelds();
    const answer = await gameApi().melds(base(table.length ? { table } : {}));
    const out = [
      h("p", {}, `Deadwood ${answer.best.deadwood_points} points (C-2)`, answer.best.deadwood.length ? ":" : ".", " ", answer.best.deadwood.length ? faces(answer.best.deadwood, true) : null),
      ...bestMelds(answer.best),
    ];
    if (answer.ties?.length) out.push(h("p", {}, `${answer.ties.length} other arrangement(s) leave the same deadwood.`));
    if (answer.layoffs?.length) {
      out.push(h("p", {}, "Lay-offs: ", answer.layoffs.map((l) => `${l.card} on table meld ${l.meld_index + 1}`).join(", "), "."));
    }
    if (answer.going_out?.pays) out.push(h("p", {}, withRules(answer.going_out.pays)));
    return out;
  });
}

async function early() {
  await ask(state.game === "triple-tunk" ? "Early tunk (TT-9)" : "49 / 50 (GFF-4)", async () => {
    const body = state.game === "triple-tunk" ? { hand: allCards() } : { hand: allCards(), players: state.players };
    const answer = await gameApi().earlyTunk(body);
    return [
      h("p", {}, h("strong", { class: answer.eligible ? "ok-text" : "bad-text" }, answer.eligible ? "Yes" : "No"),
        `: the hand totals ${answer.total}. `, answer.rule ? ruleButton(answer.rule) : null),
      answer.pays ? h("p", {}, withRules(answer.pays)) : null,
    ].filter(Boolean);
  });
}

const COLUMNS = [
  ["card", "Card"], ["deadwood", "Deadwood"], ["outs", "Outs"], ["expected_deadwood", "Expected deadwood"],
  ["danger", "Danger"], ["score", "Score"],
];

function optionsTable(options) {
  let sortKey = "score";
  let ascending = true;
  const wrap = h("div", { class: "table-wrap" });
  const draw = () => {
    const rows = [...options].sort((a, b) => {
      const x = a[sortKey] ?? Infinity;
      const y = b[sortKey] ?? Infinity;
      return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
    });
    const head = h("tr", {}, COLUMNS.map(([key, label]) => h("th", {
      scope: "col", "aria-sort": key === sortKey ? (ascending ? "ascending" : "descending") : "none",
    }, h("button", { type: "button", onclick: () => { ascending = key === sortKey ? !ascending : true; sortKey = key; draw(); wrap.querySelector(`[data-sort="${key}"]`).focus(); }, "data-sort": key }, label))));
    const body = rows.map((o) => h("tr", { "data-option": o.card }, COLUMNS.map(([key]) => {
      const v = o[key];
      if (key === "card") return h("td", {}, v);
      if (key === "danger" && typeof v === "number") return h("td", {}, pct(v));
      return h("td", {}, v === null || v === undefined ? "–" : typeof v === "number" ? String(Math.round(v * 100) / 100) : String(v));
    })));
    wrap.replaceChildren(h("table", {}, h("caption", {}, "Each discard: lower score is better; press a heading to sort."), h("thead", {}, head), h("tbody", {}, body)));
  };
  draw();
  return wrap;
}

async function discard() {
  await ask("What to discard", async () => {
    const answer = await gameApi().discard(base(context()));
    return [
      h("p", {}, h("strong", {}, answer.discard ? `Discard ${answer.discard}` : "No discard needed"), answer.discard ? faces([answer.discard], true) : null),
      h("p", { class: "explanation" }, withRules(answer.explanation)),
      optionsTable(answer.options),
    ];
  });
}

async function drawAdvice() {
  await ask("Draw from the stock or the discard pile?", async () => {
    const answer = await gameApi().draw(base(context()));
    return [
      h("p", {}, h("strong", {}, answer.take_discard ? `Take the ${answer.top_discard}` : "Draw from the stock")),
      h("p", { class: "explanation" }, withRules(answer.explanation)),
    ];
  });
}

async function knock() {
  const word = state.game === "triple-tunk" ? "Knock" : "Drop";
  await ask(`${word} now?`, async () => {
    const answer = await gameApi().knock(base(context()));
    const p = answer.win_probability;
    const low = answer.interval?.low ?? p;
    const high = answer.interval?.high ?? p;
    const text = `Chance your total is lowest: ${pct(p)} (95% interval ${pct(low)} to ${pct(high)})`;
    // Sizes through the CSSOM: the page's CSP allows no inline style attributes.
    const fill = h("div", { class: "fill" });
    fill.style.width = `${(p * 100).toFixed(1)}%`;
    const ci = h("div", { class: "ci" });
    ci.style.left = `${(low * 100).toFixed(1)}%`;
    ci.style.width = `${((high - low) * 100).toFixed(1)}%`;
    const bar = h("div", { class: "bar", role: "img", "aria-label": text, id: "win-bar" }, fill, ci);
    return [
      h("p", {}, h("strong", {}, answer.knock ? `${word}: yes` : `${word}: not yet`), answer.allowed === false ? " (not allowed now)" : ""),
      h("p", { id: "win-text" }, text),
      bar,
      h("div", { class: "bar-labels", "aria-hidden": "true" }, h("span", {}, "0%"), h("span", {}, "50%"), h("span", {}, "100%")),
      h("table", {}, h("caption", {}, `Expected value of each choice (${answer.unit})`),
        h("tbody", {},
          h("tr", {}, h("th", { scope: "row" }, word), h("td", {}, fmt(answer.expected_payout))),
          h("tr", {}, h("th", { scope: "row" }, "Play on"), h("td", {}, fmt(answer.value_of_playing_on))))),
      h("p", { class: "explanation" }, withRules(answer.explanation)),
    ];
  });
}

function fmt(x) {
  return typeof x === "number" ? `${x >= 0 ? "+" : ""}${x.toFixed(2)}` : "–";
}

// --- the rule panel ----------------------------------------------------------------------------

let opener = null;

async function openRule(id, from) {
  opener = from ?? document.activeElement;
  const panel = $("rule-panel");
  $("rule-title").textContent = id;
  $("rule-text").textContent = "Loading…";
  panel.hidden = false;
  panel.focus();
  try {
    const rule = await api.getRule(id);
    $("rule-title").textContent = `${rule.id}: ${rule.title}`;
    $("rule-text").textContent = rule.text;
  } catch (error) {
    $("rule-text").textContent = error instanceof TunkError ? `Could not load the rule: ${error.messages().join("; ")}` : String(error);
  }
}

function closeRule() {
  $("rule-panel").hidden = true;
  if (opener && document.contains(opener)) opener.focus();
}

// --- start -------------------------------------------------------------------------------------

function restart() {
  try {
    if (state.typed) useTyped(state.typed);
    else deal();
  } catch (error) {
    state.typed = null;
    deal();
    showError(error);
  }
  setupControls();
  render();
  history.replaceState(null, "", lessonUrl());
}

function wire() {
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    $("error").hidden = true;
    state.game = $("game").value;
    state.seed = Math.max(0, Number.parseInt($("seed").value, 10) || 0);
    state.round = Number.parseInt($("round").value, 10) || state.round;
    const info = state.catalogue[state.game].players;
    state.players = Math.min(info.max, Math.max(info.min, Number.parseInt($("players").value, 10) || info.min));
    state.typed = null;
    restart();
  });
  $("game").addEventListener("change", () => $("setup").requestSubmit());
  $("round").addEventListener("change", () => $("setup").requestSubmit());
  $("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    $("error").hidden = true;
    try {
      parseHand(state.game, $("typed-hand").value);
      state.typed = $("typed-hand").value.trim();
      restart();
    } catch (error) {
      showError(error);
    }
  });
  $("new-meld").addEventListener("click", newMeld);
  $("clear-melds").addEventListener("click", () => { state.loose.push(...state.melds.flat()); state.melds = []; render(); });
  $("draw-stock").addEventListener("click", () => {
    if (!state.stock.length) return say("The stock is empty.");
    state.loose.push(state.stock.shift());
    render();
  });
  $("take-discard").addEventListener("click", () => {
    if (!state.pile.length) return say("The discard pile is empty.");
    state.loose.push(state.pile.shift());
    render();
  });
  $("check").addEventListener("click", check);
  $("best").addEventListener("click", showBest);
  $("early").addEventListener("click", early);
  $("discard").addEventListener("click", discard);
  $("draw").addEventListener("click", drawAdvice);
  $("knock").addEventListener("click", knock);
  $("rule-close").addEventListener("click", closeRule);
  $("rule-panel").addEventListener("keydown", (e) => { if (e.key === "Escape") closeRule(); });
  dropZone($("hand"), "hand");
}

async function start() {
  wire();
  readUrl();
  try {
    const games = await api.listGames();
    state.catalogue = Object.fromEntries(games.games.map((g) => [g.game, g]));
  } catch (error) {
    showError(error);
    return;
  }
  restart();
  document.body.dataset.ready = "true";
}

window.addEventListener("unhandledrejection", (event) => showError(event.reason));
start();
