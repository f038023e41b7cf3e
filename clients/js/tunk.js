// Tunk Hand Analysis: a JavaScript client for the public /v1 API.
//
// One ES module, no build step, no dependency: it runs in a page (<script type="module">) and in
// Node 18+ (global fetch). Every operation of openapi.yaml is one method named by its
// operationId (client.gffMelds(body), client.getRule("GFF-2"), ...), generated into
// operations.js with the JSON schema of its request body; a body is checked against that schema
// before it is sent, so a bad card is reported without a round trip. Every error, from the
// client's own check or from the service's application/problem+json answer, is a TunkError whose
// `errors` maps field paths such as "hand[1]" to messages, exactly like the service's.
//
//   import { createClient } from "./tunk.js";
//   const tunk = createClient({ baseUrl: "http://127.0.0.1:8000" });  // or new TunkClient(...)
//   const best = await tunk.gffMelds({ hand: ["7H", "8H", "9H", "7S", "7D", "KC"] });
//   best.best.deadwood_points; // 24
//
// Card helpers read and write both decks (docs/rules.md GFF-1 / T13-3 and TT-1):
// parseStandardCard("10h") -> {code: "10H", rank: "10", suit: "H", points: 10},
// parseTopperCard("kb?") -> {code: "KB?", colour: "K", shape: "B", number: "?", points: 5, ...}.

import { OPERATIONS, SCHEMAS } from "./operations.js";

export { OPERATIONS, SCHEMAS };

/** @typedef {import("./operations").Operations} Operations */

/** The games of the service and the operationId prefix of each. */
export const GAMES = Object.freeze({
  "game-flip-flop": Object.freeze({ prefix: "gff", deck: "standard", title: "Game, Flip, Flop" }),
  "triple-tunk": Object.freeze({ prefix: "tt", deck: "triple-topper", title: "Triple Tunk" }),
  "three-thirteen": Object.freeze({ prefix: "t13", deck: "standard", title: "Three Thirteen" }),
});

/**
 * An answer that is not a success, or a body the client refused to send.
 *
 * `status` is the HTTP status (0 when the request never reached the service: a refused body or a
 * network failure), `errors` maps field paths ("hand[1]", "table[0].cards[2]") to lists of
 * messages, `title` / `detail` / `type` come from the problem document, `requestId` from the
 * X-Request-ID header.
 */
export class TunkError extends Error {
  /**
   * @param {string} message
   * @param {{status?: number, title?: string, detail?: string, type?: string,
   *          errors?: Record<string, string[]>, requestId?: string | null, body?: unknown,
   *          sent?: boolean}} [fields]
   */
  constructor(message, fields = {}) {
    super(message);
    this.name = "TunkError";
    this.status = fields.status ?? 0;
    this.title = fields.title ?? "";
    this.detail = fields.detail ?? message;
    this.type = fields.type ?? "about:blank";
    /** @type {Record<string, string[]>} */
    this.errors = fields.errors ?? {};
    this.requestId = fields.requestId ?? null;
    this.body = fields.body;
    /** false when the client refused the body before sending it */
    this.sent = fields.sent ?? true;
  }

  /** Every field message as "path: message" lines, for showing to a person. */
  messages() {
    const lines = [];
    for (const [path, list] of Object.entries(this.errors)) {
      for (const text of list) lines.push(path ? `${path}: ${text}` : text);
    }
    return lines.length ? lines : [this.detail || this.message];
  }
}

// --- cards -------------------------------------------------------------------------------------

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10];
/** @type {Map<string, number>} */
const RANK_BY_TEXT = new Map();
RANKS.forEach((r, i) => RANK_BY_TEXT.set(r, i));
RANK_BY_TEXT.set("T", 9).set("0", 9);
const SUITS = ["S", "H", "D", "C"];
const SUIT_BY_TEXT = new Map([
  ["S", 0], ["H", 1], ["D", 2], ["C", 3],
  ["\u2660", 0], ["\u2665", 1], ["\u2666", 2], ["\u2663", 3],
  ["\u2664", 0], ["\u2661", 1], ["\u2662", 2], ["\u2667", 3],
]);
/** Suit letter -> its name and symbol. */
export const SUIT_NAMES = Object.freeze({ S: "spades", H: "hearts", D: "diamonds", C: "clubs" });
export const SUIT_SYMBOLS = Object.freeze({ S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" });

const COLOURS = ["R", "Y", "G", "B", "K"];
const COLOUR_WORDS = ["red", "yellow", "green", "blue", "black"];
const SHAPES = ["C", "H", "T", "S", "B"];
const SHAPE_WORDS = ["circle", "heart", "triangle", "square", "blob"];
const NUMBERS = ["1", "2", "3", "4", "?"];
/** Triple Topper colour letter -> word, shape letter -> word. */
export const COLOUR_NAMES = Object.freeze(Object.fromEntries(COLOURS.map((c, i) => [c, COLOUR_WORDS[i]])));
export const SHAPE_NAMES = Object.freeze(Object.fromEntries(SHAPES.map((s, i) => [s, SHAPE_WORDS[i]])));

/**
 * A standard card (Game Flip Flop, Three Thirteen) from text: rank A 2-10 J Q K (T or 0 for ten)
 * and suit S H D C or a suit symbol, any case, spaces around ignored; the same texts the service
 * accepts.
 * @param {string} text
 * @returns {{code: string, rank: string, suit: string, index: number, points: number}}
 * @throws {TunkError} when the text is not a standard card
 */
export function parseStandardCard(text) {
  if (typeof text === "string") {
    const cleaned = text.trim().toUpperCase();
    const rank = RANK_BY_TEXT.get(cleaned.slice(0, -1));
    const suit = SUIT_BY_TEXT.get(cleaned.slice(-1));
    if (cleaned.length >= 2 && rank !== undefined && suit !== undefined) {
      return {
        code: RANKS[rank] + SUITS[suit], rank: RANKS[rank], suit: SUITS[suit],
        index: suit * 13 + rank, points: RANK_POINTS[rank],
      };
    }
  }
  throw new TunkError(
    `${JSON.stringify(text)} is not a card: expected a rank A 2-10 J Q K (T or 0 for ten) ` +
      "followed by a suit S H D C, e.g. AS, 10H, QD",
    { sent: false },
  );
}

/**
 * The canonical text of a standard card: formatStandardCard({rank: "10", suit: "H"}) -> "10H".
 * @param {{rank: string, suit: string}} card
 */
export function formatStandardCard(card) {
  return parseStandardCard(`${card.rank}${card.suit}`).code;
}

/**
 * A Triple Topper card (Triple Tunk, TT-1) from text: colour R Y G B K, shape C H T S B, number
 * 1 2 3 4 ?, any case (RH3, kb?), or spelled out ("red heart 3"). Black (K) and blob (B) are wild
 * (TT-3); ? counts 5 (TT-2).
 * @param {string} text
 * @returns {{code: string, colour: string, shape: string, number: string, index: number,
 *            points: number, wild: boolean, wildColour: boolean, wildShape: boolean,
 *            name: string}}
 * @throws {TunkError} when the text is not a Triple Topper card
 */
export function parseTopperCard(text) {
  if (typeof text === "string") {
    let words = text.trim().toLowerCase().split(/\s+/);
    if (words.length === 1 && [...words[0]].length === 3) words = [...words[0]];
    if (words.length === 3) {
      const colour = pick(words[0], COLOURS, COLOUR_WORDS);
      const shape = pick(words[1], SHAPES, SHAPE_WORDS);
      const number = NUMBERS.indexOf(words[2]);
      if (colour >= 0 && shape >= 0 && number >= 0) {
        const wildColour = colour === 4;
        const wildShape = shape === 4;
        return {
          code: COLOURS[colour] + SHAPES[shape] + NUMBERS[number],
          colour: COLOURS[colour], shape: SHAPES[shape], number: NUMBERS[number],
          index: colour * 25 + shape * 5 + number, points: number + 1,
          wild: wildColour || wildShape, wildColour, wildShape,
          name: `${COLOUR_WORDS[colour]} ${SHAPE_WORDS[shape]} ${NUMBERS[number]}`,
        };
      }
    }
  }
  throw new TunkError(
    `${JSON.stringify(text)} is not a Triple Topper card: expected colour R Y G B K, shape ` +
      "C H T S B, number 1 2 3 4 ? (e.g. RH3, KB?), or spelled out (e.g. 'red heart 3')",
    { sent: false },
  );
}

function pick(word, letters, names) {
  return word.length === 1 ? letters.indexOf(word.toUpperCase()) : names.indexOf(word);
}

/**
 * The canonical text of a Triple Topper card: formatTopperCard({colour: "R", shape: "H",
 * number: 3}) -> "RH3".
 * @param {{colour: string, shape: string, number: string | number}} card
 */
export function formatTopperCard(card) {
  return parseTopperCard(`${card.colour}${card.shape}${card.number}`).code;
}

/**
 * Parse a card of ``game``'s deck.
 * @param {string} game a game slug ("game-flip-flop", "triple-tunk", "three-thirteen")
 * @param {string} text
 */
export function parseCard(game, text) {
  return deckOf(game) === "triple-topper" ? parseTopperCard(text) : parseStandardCard(text);
}

/**
 * Split free text ("7h 8h, 9H") into canonical card codes of ``game``'s deck. Spelled-out
 * Triple Topper cards need commas between them ("red heart 3, black blob ?").
 * @param {string} game
 * @param {string} text
 * @returns {string[]}
 * @throws {TunkError} naming the position of the first bad card (errors["hand[i]"])
 */
export function parseHand(game, text) {
  const spelled = deckOf(game) === "triple-topper" && /[a-z]{4,}/i.test(text);
  const parts = text.split(spelled ? /[,;\n]+/ : /[\s,;]+/).map((p) => p.trim()).filter(Boolean);
  return parts.map((part, i) => {
    try {
      return parseCard(game, part).code;
    } catch (error) {
      throw new TunkError(error.message, { errors: { [`hand[${i}]`]: [error.message] }, sent: false });
    }
  });
}

function deckOf(game) {
  const known = GAMES[game];
  if (!known) throw new TunkError(`unknown game ${JSON.stringify(game)}`, { sent: false });
  return known.deck;
}

// --- request checks (the spec's schema, before sending) ----------------------------------------

const patterns = new Map();

/**
 * Check ``value`` against ``schema`` (the subset of JSON schema operations.js keeps) and return
 * the problems by path, in the service's shape: {"hand[1]": ["..."]}. Empty when it conforms.
 * @param {unknown} value
 * @param {object} schema
 * @returns {Record<string, string[]>}
 */
export function validate(value, schema) {
  /** @type {Record<string, string[]>} */
  const errors = {};
  check(value, schema, "", errors);
  return errors;
}

function add(errors, path, message) {
  (errors[path] ??= []).push(message);
}

function typeOk(value, type) {
  switch (type) {
    case "integer": return Number.isInteger(value);
    case "number": return typeof value === "number" && Number.isFinite(value);
    case "array": return Array.isArray(value);
    case "object": return value !== null && typeof value === "object" && !Array.isArray(value);
    default: return typeof value === type;
  }
}

function check(value, schema, path, errors) {
  if (!schema) return;
  if (schema.$ref) return check(value, SCHEMAS[schema.$ref], path, errors);
  if (value === null) {
    if (!schema.nullable && schema.type) add(errors, path, "may not be null");
    return;
  }
  for (const sub of schema.allOf ?? []) check(value, sub, path, errors);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && !alternatives.some((sub) => !Object.keys(validate(value, sub)).length)) {
    add(errors, path, "matches none of the allowed shapes");
  }
  if (schema.type && !typeOk(value, schema.type)) {
    add(errors, path, `must be ${schema.type === "integer" ? "an integer" : `a JSON ${schema.type}`}`);
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    add(errors, path, `must be one of ${schema.enum.join(", ")}`);
  }
  if (typeof value === "string") {
    if (schema.pattern) {
      let re = patterns.get(schema.pattern);
      if (!re) patterns.set(schema.pattern, (re = new RegExp(schema.pattern, "u")));
      if (!re.test(value)) add(errors, path, `${JSON.stringify(value)} does not match ${schema.pattern}`);
    }
    if (schema.minLength !== undefined && value.length < schema.minLength) add(errors, path, `shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) add(errors, path, `longer than ${schema.maxLength}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) add(errors, path, `must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) add(errors, path, `must be at most ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) add(errors, path, `needs at least ${schema.minItems} item(s)`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) add(errors, path, `holds at most ${schema.maxItems} item(s)`);
    value.forEach((item, i) => check(item, schema.items, `${path}[${i}]`, errors));
  }
  if (typeOk(value, "object")) {
    const props = schema.properties ?? {};
    for (const name of schema.required ?? []) {
      if (value[name] === undefined) add(errors, join(path, name), "Missing data for required field.");
    }
    for (const [name, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (props[name]) check(item, props[name], join(path, name), errors);
      else if (schema.additionalProperties === false) add(errors, join(path, name), "Unknown field.");
      else if (typeof schema.additionalProperties === "object") check(item, schema.additionalProperties, join(path, name), errors);
    }
  }
}

function join(path, name) {
  return path ? `${path}.${name}` : name;
}

// --- the client --------------------------------------------------------------------------------

/**
 * A client of one service. Methods: one per operationId (see OPERATIONS), plus `game(slug)` for
 * the per-game operations by short name and `call(operationId, input)`.
 */
export class TunkClient {
  /**
   * @param {{baseUrl?: string, fetch?: typeof globalThis.fetch, headers?: Record<string,string>,
   *          validate?: boolean}} [options] baseUrl "" means this page's own origin; validate
   *          false sends bodies unchecked (to see the service's own answer to a bad body).
   */
  constructor(options = {}) {
    this.baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.headers = options.headers ?? {};
    this.validateBodies = options.validate ?? true;
    for (const operationId of Object.keys(OPERATIONS)) {
      this[operationId] = (input, init) => this.call(operationId, input, init);
    }
  }

  /**
   * Call one operation. For a POST, ``input`` is the JSON body; for getRule it is the rule id
   * (or {rule_id}); for listRules it is {game}.
   * @param {string} operationId
   * @param {unknown} [input]
   * @param {{signal?: AbortSignal, headers?: Record<string,string>}} [init]
   * @returns {Promise<any>} the decoded JSON answer
   * @throws {TunkError}
   */
  async call(operationId, input, init = {}) {
    const op = OPERATIONS[operationId];
    if (!op) throw new TunkError(`unknown operation ${operationId}`, { sent: false });
    let path = op.path;
    const params = typeof input === "string" ? { rule_id: input } : (input ?? {});
    path = path.replace(/\{(\w+)\}/g, (_, name) => {
      if (params[name] === undefined) {
        throw new TunkError(`${operationId} needs ${name}`, { errors: { [name]: ["required"] }, sent: false });
      }
      return encodeURIComponent(String(params[name]));
    });
    const query = new URLSearchParams();
    for (const name of op.query ?? []) {
      if (params[name] !== undefined && params[name] !== null) query.set(name, String(params[name]));
    }
    const headers = { Accept: "application/json", ...this.headers, ...(init.headers ?? {}) };
    const request = { method: op.method, headers, signal: init.signal };
    if (op.body) {
      if (this.validateBodies) {
        const errors = validate(input, op.body);
        if (Object.keys(errors).length) {
          const first = Object.entries(errors)[0];
          throw new TunkError(`Invalid request: ${first[0] || "body"}: ${first[1][0]}`, {
            status: 0, title: "Invalid request", errors, sent: false,
          });
        }
      }
      headers["Content-Type"] = "application/json";
      request.body = JSON.stringify(input);
    }
    const url = this.baseUrl + path + (query.size ? `?${query}` : "");
    let response;
    try {
      response = await this.fetch(url, request);
    } catch (error) {
      throw new TunkError(`could not reach the service (${error.message ?? error})`, { status: 0 });
    }
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      const problem = data && typeof data === "object" ? data : {};
      throw new TunkError(problem.detail || problem.title || `HTTP ${response.status}`, {
        status: response.status, title: problem.title, detail: problem.detail, type: problem.type,
        errors: problem.errors, requestId: response.headers.get("X-Request-ID"), body: data,
      });
    }
    return data;
  }

  /**
   * The per-game operations of ``slug`` by short name: melds, arrangement, discard, draw, knock,
   * profile, earlyTunk, settle, sidePots (those the game has).
   * @param {string} slug
   */
  game(slug) {
    const known = GAMES[slug];
    if (!known) throw new TunkError(`unknown game ${JSON.stringify(slug)}`, { sent: false });
    const out = {};
    for (const operationId of Object.keys(OPERATIONS)) {
      if (operationId.startsWith(known.prefix) && /[A-Z]/.test(operationId[known.prefix.length])) {
        const short = operationId[known.prefix.length].toLowerCase() + operationId.slice(known.prefix.length + 1);
        out[short] = (body, init) => this.call(operationId, body, init);
      }
    }
    return out;
  }
}

/**
 * A TunkClient typed with one method per operation (operations.d.ts, from openapi.yaml): in
 * TypeScript or a checked JS file, `createClient().gffMelds(body)` checks the body's type and
 * types the answer.
 * @param {ConstructorParameters<typeof TunkClient>[0]} [options]
 * @returns {TunkClient & Operations}
 */
export function createClient(options) {
  return /** @type {TunkClient & Operations} */ (/** @type {unknown} */ (new TunkClient(options)));
}
