// Unit tests of the starter (node --test): the signature check and the policy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bestOf, choose, rankOf, searchChoose, verify, verifyRequest } from "./bot.mjs";

// HMAC-SHA256("secret", '1700000000.{"a":1}'), the same vector as the Python and Rust starters.
const SIGNED =
  "sha256=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686";
const BODY = Buffer.from('{"a":1}');

test("a signature over timestamp.body verifies", () => {
  assert.ok(verify("secret", "1700000000", SIGNED, BODY, 1700000000));
});

test("a wrong secret, body, timestamp or a stale request is refused", () => {
  assert.ok(!verify("other", "1700000000", SIGNED, BODY, 1700000000));
  assert.ok(!verify("secret", "1700000000", SIGNED, Buffer.from('{"a":2}'), 1700000000));
  assert.ok(!verify("secret", "1700000001", SIGNED, BODY, 1700000001));
  assert.ok(!verify("secret", "1700000000", SIGNED, BODY, 1700000000 + 301));
  assert.ok(!verify("secret", "1700000000", "", BODY, 1700000000));
  assert.ok(!verify("secret", "", SIGNED, BODY, 1700000000));
});

test("after a rotation either signature header verifies", () => {
  const at = 1700000000;
  const headers = (signature, previous) => ({
    "x-cardroom-timestamp": "1700000000",
    "x-cardroom-signature": signature,
    ...(previous === undefined ? {} : { "x-cardroom-signature-previous": previous }),
  });
  const forged = "sha256=" + "0".repeat(64);
  assert.ok(verifyRequest("secret", headers(SIGNED), BODY, at));
  // A bot still on the replaced secret: the new signature fails, the previous one verifies.
  assert.ok(verifyRequest("secret", headers(forged, SIGNED), BODY, at));
  assert.ok(!verifyRequest("secret", headers(forged, forged), BODY, at));
  assert.ok(!verifyRequest("secret", headers(forged), BODY, at));
  assert.ok(!verifyRequest("secret", {}, BODY, at));
});

test("card ranks run from two to ace, joker highest", () => {
  assert.deepEqual(["2S", "9H", "TH", "AS", "JK", "2-5"].map(rankOf), [0, 7, 8, 12, 13, -1]);
});

test("the policy sheds high cards and discards only high ones", () => {
  const lead = { view: { target: null }, legal_actions: [
    { type: "play", cards: ["3S"] }, { type: "play", cards: ["KD"] }, { type: "play", cards: ["9C", "9H"] },
  ] };
  assert.deepEqual(choose(lead), { type: "play", cards: ["KD"] });
  const exchange = { view: {}, legal_actions: [
    { type: "discard", card: "4S" }, { type: "draw" }, { type: "discard", card: "QH" },
  ] };
  assert.deepEqual(choose(exchange), { type: "discard", card: "QH" });
  exchange.legal_actions.pop();
  assert.deepEqual(choose(exchange), { type: "draw" });
  const other = { view: {}, legal_actions: [{ type: "accept" }, { type: "fold" }] };
  assert.deepEqual(choose(other), { type: "accept" });
});

test("the search picks the best mean standing for its seat, canonical order on ties", () => {
  const results = [
    { action: { type: "play", cards: ["3S"] }, mean_standing: [0.2, 0.8] },
    { action: { type: "play", cards: ["KD"] }, mean_standing: [0.6, 0.4] },
    { action: { type: "play", cards: ["9C"] }, mean_standing: [0.6, 0.1] },
  ];
  assert.deepEqual(bestOf(results, 0, 8).action, { type: "play", cards: ["KD"] });
  assert.deepEqual(bestOf(results, 1, 8).action, { type: "play", cards: ["3S"] });
  assert.equal(bestOf(results, 0, 8).comment, "rollouts: 8 per action, best standing 0.60");
});

test("a forced move or an unreachable API falls back to the simple policy", async () => {
  const request = { game: "twenty_two", seat: 0, info: "i2.m.0.0.x", deadline_ms: 200, view: {},
    legal_actions: [{ type: "play", cards: ["3S"] }, { type: "play", cards: ["KD"] }] };
  const forced = await searchChoose({ ...request, legal_actions: [request.legal_actions[0]] },
    { api: "http://127.0.0.1:9" });
  assert.equal(forced.comment, "forced");
  const failed = await searchChoose(request, { api: "http://127.0.0.1:9" });
  assert.deepEqual(failed.action, { type: "play", cards: ["KD"] });
  assert.match(failed.comment, /^search failed/);
});
