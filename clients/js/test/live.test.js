// The client against a live service: TUNK_BASE_URL names it (tests/js/test_js_client.py starts
// gunicorn and sets it). Without it these tests are skipped.
import assert from "node:assert/strict";
import { test } from "node:test";

import { TunkClient, TunkError, createClient } from "../tunk.js";

const baseUrl = process.env.TUNK_BASE_URL;
const live = { skip: baseUrl ? false : "TUNK_BASE_URL is not set (no live service)" };
const client = createClient({ baseUrl });

test("games catalogue and a rule's text", live, async () => {
  const games = await client.listGames();
  assert.deepEqual(games.games.map((g) => g.game), ["game-flip-flop", "triple-tunk", "three-thirteen"]);
  const rule = await client.getRule("GFF-2");
  assert.equal(rule.id, "GFF-2");
  assert.match(rule.text, /\S/);
});

test("Game Flip Flop melds: 7-8-9 of hearts leaves 24 (C-2)", live, async () => {
  const answer = await client.gffMelds({ hand: ["7H", "8H", "9H", "7S", "7D", "KC"] });
  assert.equal(answer.best.deadwood_points, 24);
  assert.deepEqual(answer.best.deadwood, ["7S", "7D", "KC"]);
});

test("check my arrangement names the broken rule (TT-6)", live, async () => {
  const answer = await client.game("triple-tunk").arrangement({
    hand: ["RH1", "RH2", "RH3", "YT4", "GT4", "KB4"],
    melds: [["RH1", "RH2", "YT4"]],
  });
  assert.equal(answer.melds[0].valid, false);
  assert.equal(answer.melds[0].rule, "TT-6");
  assert.equal(answer.best_deadwood_points, 0);
});

test("Three Thirteen round 3: fives are wild (T13-1)", live, async () => {
  const answer = await client.t13Melds({ hand: ["5S", "6H", "7H", "8H", "9H", "KD"], round: 3 });
  assert.equal(answer.wild_rank, "5");
  assert.equal(answer.best.deadwood_points, 10);
});

test("knock odds carry a 95% interval", live, async () => {
  const answer = await client.gffKnock({ hand: ["AS", "2D", "6C", "5H", "4S"], players: 3 });
  assert.ok(answer.interval.low <= answer.win_probability);
  assert.ok(answer.win_probability <= answer.interval.high);
});

test("the service's problem errors surface as TunkError fields", live, async () => {
  const unchecked = new TunkClient({ baseUrl, validate: false });
  await assert.rejects(unchecked.gffMelds({ hand: ["7H", "ZZ"] }), (error) => {
    assert.ok(error instanceof TunkError);
    assert.equal(error.status, 422);
    assert.equal(error.sent, true);
    assert.deepEqual(Object.keys(error.errors), ["hand[1]"]);
    assert.match(error.errors["hand[1]"][0], /'ZZ' is not a card/);
    assert.equal(typeof error.requestId, "string");
    return true;
  });
  await assert.rejects(client.getRule("XX-99"), (error) => error instanceof TunkError && error.status === 404);
});
