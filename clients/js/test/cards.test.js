// Card helpers and the before-sending check, without a service (a stub fetch counts calls).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  TunkClient, TunkError, formatStandardCard, formatTopperCard, parseHand, parseStandardCard,
  parseTopperCard, validate, OPERATIONS, SCHEMAS,
} from "../tunk.js";

test("standard cards: every spelling the service reads, printed canonically", () => {
  assert.deepEqual(parseStandardCard("10h"), { code: "10H", rank: "10", suit: "H", index: 22, points: 10 });
  assert.equal(parseStandardCard("th").code, "10H");
  assert.equal(parseStandardCard("0D").code, "10D");
  assert.equal(parseStandardCard(" q\u2666 ").code, "QD");
  assert.equal(parseStandardCard("A\u2664").code, "AS");
  assert.equal(parseStandardCard("KC").points, 10);
  assert.equal(formatStandardCard({ rank: "j", suit: "s" }), "JS");
  for (const bad of ["1S", "ZZ", "10", "11H", "", "RH3"]) {
    assert.throws(() => parseStandardCard(bad), TunkError, bad);
  }
});

test("Triple Topper cards: wilds and ? (TT-2, TT-3)", () => {
  const kb = parseTopperCard("kb?");
  assert.equal(kb.code, "KB?");
  assert.equal(kb.points, 5);
  assert.equal(kb.wild && kb.wildColour && kb.wildShape, true);
  const rb = parseTopperCard("red blob 2");
  assert.deepEqual([rb.code, rb.wildColour, rb.wildShape, rb.name], ["RB2", false, true, "red blob 2"]);
  assert.equal(parseTopperCard("RH3").wild, false);
  assert.equal(formatTopperCard({ colour: "y", shape: "t", number: 4 }), "YT4");
  for (const bad of ["RH5", "XH1", "red heart", "10H", "RH"]) {
    assert.throws(() => parseTopperCard(bad), TunkError, bad);
  }
});

test("parseHand names the bad card's position like the service", () => {
  assert.deepEqual(parseHand("game-flip-flop", "7h 8h, 9H"), ["7H", "8H", "9H"]);
  assert.deepEqual(parseHand("triple-tunk", "red heart 3, black blob ?"), ["RH3", "KB?"]);
  try {
    parseHand("three-thirteen", "7H ZZ");
    assert.fail("no error");
  } catch (error) {
    assert.ok(error instanceof TunkError);
    assert.deepEqual(Object.keys(error.errors), ["hand[1]"]);
  }
});

test("one function per operation of the spec", () => {
  const client = new TunkClient({ baseUrl: "http://example.invalid" });
  assert.equal(Object.keys(OPERATIONS).length, 29);
  for (const id of ["gffMelds", "ttArrangement", "t13Draw", "getRule", "listGames", "batch"]) {
    assert.equal(typeof client[id], "function", id);
  }
  assert.deepEqual(Object.keys(client.game("three-thirteen")).sort(),
    ["arrangement", "discard", "draw", "melds", "settle"]);
  assert.ok("earlyTunk" in client.game("triple-tunk"));
  assert.ok("profile" in client.game("triple-tunk") && "profile" in client.game("game-flip-flop"));
  assert.ok("sidePots" in client.game("game-flip-flop"));
});

test("a bad card is refused before sending (the spec's pattern)", async () => {
  let calls = 0;
  const fetch = async () => { calls += 1; return new Response("{}"); };
  const client = new TunkClient({ baseUrl: "http://example.invalid", fetch });
  await assert.rejects(client.gffMelds({ hand: ["7H", "ZZ"] }), (error) => {
    assert.ok(error instanceof TunkError);
    assert.equal(error.sent, false);
    assert.equal(error.status, 0);
    assert.deepEqual(Object.keys(error.errors), ["hand[1]"]);
    return true;
  });
  await assert.rejects(client.ttMelds({ hand: ["RH3", "7H"] }), /hand\[1\]/);
  await assert.rejects(client.gffMelds({ hand: ["AS", "2S", "3S", "4S", "5S", "6S", "7S"] }), /hand/);
  assert.equal(calls, 0);
  const card = SCHEMAS.GffMeldsRequest.properties.hand.items;
  assert.deepEqual(validate("10H", card), {});
  assert.deepEqual(Object.keys(validate("RH3", card)), [""]);
});
