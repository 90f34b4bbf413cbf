#!/usr/bin/env node
// A cardroom arena bot in plain Node.js 20 (node:http and node:crypto, no dependencies).
//
// It serves the bot protocol (docs/bots.md, openapi/bot-protocol.json):
//   GET  /       -> {"name", "author", "version", "games"}
//   POST /move   -> {"action": one of legal_actions}
//   POST /start, POST /end -> 204 (notifications)
//
// Every request from the arena is signed: X-Cardroom-Timestamp (unix seconds) and
// X-Cardroom-Signature: sha256=<hex HMAC-SHA256(signing_secret, timestamp + "." + raw body)>.
// For 10 minutes after the owner rotates the secret (POST /v1/bots/{id}/secret), requests also
// carry X-Cardroom-Signature-Previous, made with the replaced secret: a request is accepted when
// either header verifies, so this bot keeps working until it is restarted with the new secret.
// With CARDROOM_SIGNING_SECRET set, unsigned, forged or stale requests are answered 401.
// Without it every request is accepted: that is only for the first registration probe, before
// the arena has told you the secret.
//
// Usage: node bot.mjs [--port 8765] [--host 127.0.0.1] [--games twenty_two,...] [--name NAME]
// --port 0 picks a free port; the first line on stdout is "listening on http://HOST:PORT".
//
// Search (both modes): --search URL [--playouts 16] plays each choice by flat Monte Carlo over
// the rules API at URL (`searchChoose`): rollouts from the request's `info`.
//
// Stream mode, for a bot the arena cannot reach (a laptop behind NAT or a firewall):
//   node bot.mjs --connect https://arena.example --token TOKEN   (or CARDROOM_TOKEN=TOKEN)
// The bot registered with "transport": "stream" connects out: it reads GET /v1/bot/stream (one
// JSON object per line) and answers each `move` line with POST /v1/bot/matches/{id}/move. No
// port, no signatures: the token is the credential.

import { createServer } from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

/** Requests signed more than this many seconds away from our clock are refused (replays). */
export const MAX_SKEW_SECONDS = 300;
/** Largest request body read; a long match's history stays far below it. */
const BODY_LIMIT = 8 * 1024 * 1024;

/**
 * True if `signature` is "sha256=" + hex HMAC-SHA256(secret, timestamp + "." + body) and the
 * timestamp is within MAX_SKEW_SECONDS of now. Compared in constant time.
 * @param {string} secret @param {string} timestamp @param {string} signature @param {Buffer} body
 */
export function verify(secret, timestamp, signature, body, nowSeconds = Date.now() / 1000) {
  if (!/^[0-9]{1,15}$/.test(timestamp ?? "")) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
  const mac = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
  const expected = Buffer.from(`sha256=${mac}`);
  const given = Buffer.from(signature ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * True if the request's X-Cardroom-Signature or X-Cardroom-Signature-Previous verifies with
 * `secret` (see `verify`): after a rotation the arena signs with both the new and the replaced
 * secret, so the bot works with either.
 * @param {string} secret @param {import("node:http").IncomingHttpHeaders} headers @param {Buffer} body
 */
export function verifyRequest(secret, headers, body, nowSeconds = Date.now() / 1000) {
  const timestamp = headers["x-cardroom-timestamp"];
  return [headers["x-cardroom-signature"], headers["x-cardroom-signature-previous"]].some(
    (signature) => signature !== undefined && verify(secret, timestamp, signature, body, nowSeconds),
  );
}

const RANKS = "23456789TJQKA";

/** Rank of a card code ("TH" -> 8, "AS" -> 12, "JK" -> 13); -1 for anything else (tiles). */
export function rankOf(code) {
  if (code === "JK") return RANKS.length;
  return typeof code === "string" && code.length === 2 ? RANKS.indexOf(code[0]) : -1;
}

/** The cards an action names: its `cards` list or its single `card`. */
function cardsOf(action) {
  if (Array.isArray(action.cards)) return action.cards;
  return typeof action.card === "string" ? [action.card] : [];
}

/**
 * The strategy: shed high cards early, as a penalty game like 22 rewards. Each legal action gets
 * a score and the best one wins (ties keep the engine's canonical order):
 * - exchange: discard a ten or better, otherwise draw;
 * - lead (no target to beat): the highest card, as a set if possible;
 * - follow: the highest total.
 * Actions naming no card (accept, fold, pass, ...) keep the canonical order.
 * Replace this with something clever: `request.view` is what your seat may see.
 * @param {{view: object, legal_actions: object[]}} request
 * @returns {object} one of request.legal_actions, exactly as sent
 */
export function choose(request) {
  const legal = request.legal_actions;
  const leading = request.view?.target == null;
  let best = 0;
  let bestScore = -Infinity;
  legal.forEach((action, index) => {
    const ranks = cardsOf(action).map(rankOf);
    const top = Math.max(-1, ...ranks);
    const sum = ranks.reduce((a, b) => a + Math.max(b, 0), 0);
    let score = 0;
    if (action.type === "draw") score = 100;
    else if (action.type === "discard") score = top >= RANKS.indexOf("T") ? 200 + top : 0;
    else if (ranks.length > 0) score = leading ? top * 100 + ranks.length : sum * 100 + top;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return legal[best];
}

/** Playouts per legal action when searching (`--playouts`). */
const DEFAULT_PLAYOUTS = 16;

/**
 * The search example: flat Monte Carlo over the rules API. Every move request carries `info`, a
 * token naming this seat's position; `POST {api}/v1/games/{game}/rollouts` plays `playouts`
 * games to the end after each legal action, from deals this seat cannot tell from the real one,
 * and answers each seat's `mean_standing` (0 sole last .. 1 sole first, whichever way the game
 * counts its scores). The action with the best standing for our seat wins; a forced move, or a
 * failed call, falls back to `choose`. Resolves to {action, comment}.
 * @param {{game: string, seat: number, info?: string, deadline_ms: number, legal_actions: object[]}} request
 * @param {{api: string, playouts?: number}} search
 */
export async function searchChoose(request, { api, playouts = DEFAULT_PLAYOUTS }) {
  const legal = request.legal_actions;
  if (legal.length < 2 || !request.info) return { action: choose(request), comment: "forced" };
  try {
    const response = await fetch(`${api.replace(/\/+$/, "")}/v1/games/${request.game}/rollouts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ info: request.info, count: playouts, policy: "heuristic" }),
      // Leave time to answer: the search gets about half the move's deadline.
      signal: AbortSignal.timeout(Math.max(50, request.deadline_ms / 2)),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`HTTP ${response.status} ${body.code ?? ""} ${body.detail ?? ""}`);
    return bestOf(body.results, request.seat, playouts);
  } catch (error) {
    return { action: choose(request), comment: `search failed (${error.message}): the simple policy` };
  }
}

/** The result with the best mean standing for `seat` (ties keep the canonical order). */
export function bestOf(results, seat, playouts) {
  let best = results[0];
  for (const result of results) {
    if (result.mean_standing[seat] > best.mean_standing[seat]) best = result;
  }
  const standing = best.mean_standing[seat].toFixed(2);
  return { action: best.action, comment: `rollouts: ${playouts} per action, best standing ${standing}` };
}

/** The answer to a move request: searched when `search` is set, else the simple policy. */
async function decide(request, search) {
  return search ? searchChoose(request, search) : { action: choose(request) };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        reject(new Error("body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res, status, payload) {
  if (payload === undefined) {
    res.writeHead(status).end();
    return;
  }
  const data = JSON.stringify(payload);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(data),
  });
  res.end(data);
}

/**
 * The bot's HTTP server (not yet listening); `search` ({api, playouts}) plays by rollouts.
 * @param {{name: string, games: string[], secret: string, search?: {api: string, playouts?: number}}} config
 */
export function createBot({ name, games, secret, search }) {
  const server = createServer(async (req, res) => {
    let body;
    try {
      body = await readBody(req);
    } catch {
      return send(res, 413, { error: "request body too large" });
    }
    if (secret && !verifyRequest(secret, req.headers, body)) {
      return send(res, 401, { error: "bad or stale signature" });
    }
    const path = new URL(req.url, "http://bot").pathname.replace(/\/+$/, "") || "/";
    if (req.method === "GET" && path === "/") {
      return send(res, 200, { name, author: "cardroom starter", version: "1.0.0", games });
    }
    if (req.method !== "POST") return send(res, 405, { error: "method not allowed" });
    let request;
    try {
      request = JSON.parse(body.toString("utf8"));
    } catch {
      return send(res, 400, { error: "the body is not JSON" });
    }
    if (path === "/move") {
      if (!Array.isArray(request.legal_actions) || request.legal_actions.length === 0) {
        return send(res, 400, { error: "no legal_actions to choose from" });
      }
      return send(res, 200, await decide(request, search));
    }
    if (path === "/start") {
      console.error(`match ${request.match} (${request.game}) started: seat ${request.seat}`);
      return send(res, 204);
    }
    if (path === "/end") {
      const { ranking, scores } = request.result ?? {};
      console.error(
        `match ${request.match} ended: ranking ${JSON.stringify(ranking)} scores ${JSON.stringify(scores)}`,
      );
      return send(res, 204);
    }
    return send(res, 404, { error: "not found" });
  });
  // The arena keeps connections open for up to 90 s between calls; closing ours earlier could
  // race with a request already on the wire (a transport fault), so idle connections outlive it.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  return server;
}

/** Pause before connecting again after the stream drops: doubles from 1 s up to 30 s. */
const RECONNECT_MS = { first: 1000, max: 30_000 };

/** The token was refused: connecting again cannot help. */
class TokenRefused extends Error {}

/**
 * Stream mode: connects out to the arena (GET /v1/bot/stream, bearer token) and answers every
 * `move` line with POST /v1/bot/matches/{match_id}/move {request_id, action}. After a drop it
 * connects again with a growing pause, replacing the dropped connection (`?replace=true`: the
 * arena may not have seen it end); the arena then sends the pending moves of the bot's running
 * matches at once, each with the time it has left. A first connection does not replace: 409
 * `already_connected` (another process of the bot is connected) stops it. Returns when `signal`
 * aborts; throws when the arena refuses the token or the bot is connected elsewhere.
 * `search` ({api, playouts}) plays by rollouts.
 * @param {{arena: string, token: string, log?: (line: string) => void, signal?: AbortSignal, search?: {api: string, playouts?: number}}} options
 */
export async function connect({ arena, token, log = console.error, signal, search }) {
  const base = arena.replace(/\/+$/, "");
  const authorization = `Bearer ${token}`;
  const answer = async (line) => {
    const matchId = line.match_id ?? line.match;
    const response = await fetch(`${base}/v1/bot/matches/${encodeURIComponent(matchId)}/move`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ request_id: line.request_id, ...(await decide(line, search)) }),
      signal,
    });
    // 409 stale_request: the arena moved on (the deadline passed, or another connection
    // answered); 422: the action was refused. Both are the arena's to judge, not a reason to stop.
    if (response.status !== 204) log(`move in ${matchId}: HTTP ${response.status} ${await response.text()}`);
  };
  const handle = async (line) => {
    if (line.type === "move") return answer(line);
    if (line.type === "match_start") log(`match ${line.match_id ?? line.match} (${line.game}) started: seat ${line.seat}`);
    if (line.type === "match_end") {
      const { ranking, scores } = line.result ?? {};
      log(`match ${line.match_id ?? line.match} ended: ranking ${JSON.stringify(ranking)} scores ${JSON.stringify(scores)}`);
    }
  };
  let pause = RECONNECT_MS.first;
  let query = "";
  while (!signal?.aborted) {
    try {
      const response = await fetch(`${base}/v1/bot/stream${query}`, {
        headers: { authorization, accept: "application/x-ndjson" },
        signal,
      });
      // Every later connection replaces the one that dropped.
      query = "?replace=true";
      if (response.status === 401 || response.status === 403) {
        throw new TokenRefused(`the arena refused the token: HTTP ${response.status} ${await response.text()}`);
      }
      if (response.status === 409) {
        throw new TokenRefused(`another process of this bot is connected (stop it first): HTTP 409 ${await response.text()}`);
      }
      if (!response.ok) throw new Error(`HTTP ${response.status} ${await response.text()}`);
      // On stdout, as the URL mode's "listening on" line: scripts wait for it.
      console.log(`connected to ${base}`);
      pause = RECONNECT_MS.first;
      const decoder = new TextDecoder();
      let buffered = "";
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk, { stream: true });
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          const text = buffered.slice(0, end).trim();
          buffered = buffered.slice(end + 1);
          // Empty lines are the arena's keep-alive.
          if (text) await handle(JSON.parse(text));
        }
      }
      log("the arena closed the stream");
    } catch (error) {
      if (error instanceof TokenRefused) throw error;
      if (signal?.aborted) return;
      log(`stream: ${error.message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, RECONNECT_MS.max);
  }
}

function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8765" },
      host: { type: "string", default: "127.0.0.1" },
      games: { type: "string", default: "twenty_two" },
      name: { type: "string", default: "javascript-starter" },
      connect: { type: "string" },
      token: { type: "string", default: process.env.CARDROOM_TOKEN ?? "" },
      search: { type: "string" },
      playouts: { type: "string", default: String(DEFAULT_PLAYOUTS) },
    },
  });
  const search =
    values.search === undefined ? undefined : { api: values.search, playouts: Number(values.playouts) };
  if (values.connect !== undefined) {
    if (!values.token) {
      console.error("--connect needs the bot's token: --token TOKEN or CARDROOM_TOKEN");
      process.exit(2);
    }
    const stop = new AbortController();
    process.on("SIGINT", () => stop.abort());
    process.on("SIGTERM", () => stop.abort());
    connect({ arena: values.connect, token: values.token, signal: stop.signal, search }).then(
      () => process.exit(0),
      (error) => {
        console.error(error.message);
        process.exit(1);
      },
    );
    return;
  }
  const secret = process.env.CARDROOM_SIGNING_SECRET ?? "";
  if (!secret) {
    console.error(
      "CARDROOM_SIGNING_SECRET is not set: accepting unsigned requests (only for registering)",
    );
  }
  const games = values.games.split(",").filter(Boolean);
  const server = createBot({ name: values.name, games, secret, search });
  server.listen(Number(values.port), values.host, () => {
    const { address, port } = server.address();
    const host = address.includes(":") ? `[${address}]` : address;
    console.log(`listening on http://${host}:${port}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

// Run the server when started as a program (`node bot.mjs`), not when imported by a test.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main();
}
