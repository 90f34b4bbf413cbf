#!/usr/bin/env python3
"""IS-MCTS over HTTP: a search bot for any cardroom game, in Python's standard library only.

The server is the rules authority: this file knows no rule of any game. Each iteration of the
search samples one full state that the searching seat cannot tell from the real one
(`POST /v1/games/{game}/determinize`, fetched in batches of up to 256), walks a tree of actions
shared by all samples (single-observer IS-MCTS: a child is selected by UCB among the actions legal
in the current sample, its `available` count standing in for its parent's visits), adds one node,
plays uniformly random moves to the end of the game with `POST /v1/games/{game}/apply` (every
Step carries the next seat to act and its legal actions: one round trip per move), and credits
every node on the path with the final standing of the seat that chose it.

    cargo run --release -- serve &
    python3 examples/ismcts/ismcts.py duel --game bird_dog_short --seeds 20 --iterations 100

`duel` plays duplicate games: for every seed and every seat, one game with IS-MCTS in that seat
and the server's built-in `heuristic` bot (`POST /bots/heuristic/move`) in the others, against the
same deal played by `heuristic` in every seat. Each game is scored by the seat's standing (1 first,
0 last, ties share their places, as the engine's `search::standing`).

`serve` is the same search as an arena bot: it answers the bot protocol (`GET /`, `POST /move`),
and searches from the `info` of each move request (the position sealed for its seat): samples
from `/determinize {"info": ...}`, and each leaf valued by one playout of `/rollouts` (one call
instead of a round trip per move).

    python3 examples/ismcts/ismcts.py serve --port 8765 --cardroom http://127.0.0.1:8080

Errors of the server are problem+json documents with a stable `code`: they stop the program with
that code, nothing is retried or hidden.
"""

import argparse
import hashlib
import hmac
import http.client
import http.server
import json
import os
import math
import random
import sys
import time
import urllib.parse

EXPLORATION = 0.7
MAX_ROLLOUT = 2000


class Problem(Exception):
    """A problem+json answer of the server."""

    def __init__(self, status, problem):
        super().__init__(f"HTTP {status} {problem.get('code')}: {problem.get('detail')}")
        self.status = status
        self.code = problem.get("code")


class Server:
    """One keep-alive connection to a cardroom server (a round trip per call, no reconnects)."""

    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)
        self.prefix = url.path.rstrip("/")
        self.calls = 0

    def post(self, path, body):
        self.calls += 1
        self.connection.request(
            "POST",
            self.prefix + path,
            body=json.dumps(body, separators=(",", ":")),
            headers={"content-type": "application/json"},
        )
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        if response.status >= 300:
            raise Problem(response.status, answer)
        return answer

    def game(self, game, op, body):
        return self.post(f"/v1/games/{game}/{op}", body)


def action_key(action):
    """Actions are compared by their canonical JSON: the tree is shared across samples."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def standing(result, seat, players):
    """0 last .. 1 first, ties sharing their places; a single group (a cooperative game) maps
    its score into (0, 1)."""
    ranking = result["ranking"]
    if players < 2 or len(ranking) == 1:
        return 0.5 + math.atan(result["scores"][seat] / 10.0) / math.pi
    above = 0
    for group in ranking:
        if seat in group:
            beaten = players - above - len(group)
            return (beaten + (len(group) - 1) / 2.0) / (players - 1)
        above += len(group)
    return 0.0


class Node:
    __slots__ = ("who", "action", "children", "visits", "available", "reward")

    def __init__(self, who=None, action=None):
        self.who = who
        self.action = action
        self.children = {}  # (seat, action key) -> Node
        self.visits = 0
        self.available = 0
        self.reward = 0.0


def first_to_act(step):
    """The seat to act and its legal actions in a Step (the first seat where several act)."""
    if step["over"] or not step["legal_actions"]:
        return None, []
    entry = step["legal_actions"][0]
    return entry["seat"], entry["actions"]


def search(server, game, step, seat, players, iterations, rng, seconds=None, info=None, higher=None):
    """The action IS-MCTS chooses for `seat` in `step` (a Step of `new` or `apply`). With `info`
    (an arena move request's), the samples come from it and `step` needs only `legal_actions`;
    with `higher` (whether a higher score is better, see `score_direction`), each leaf is valued
    by one `/rollouts` playout instead of a round trip per move."""
    root_legal = next(e["actions"] for e in step["legal_actions"] if e["seat"] == seat)
    if len(root_legal) == 1:
        return root_legal[0]
    samples = []
    deadline = time.monotonic() + seconds if seconds else None
    root = Node()
    for iteration in range(iterations):
        if deadline and time.monotonic() > deadline:
            break
        if not samples:
            # A fresh sample per iteration, fetched in batches (the endpoint answers up to 256).
            position = {"info": info} if info else {"state": step["state"], "seat": seat}
            samples = server.game(
                game,
                "determinize",
                {
                    **position,
                    "count": max(1, min(iterations - iteration, 256)),
                    "seed": rng.randrange(2**53),
                },
            )["states"]
        state = samples.pop()
        # The seat to act in every sample is the real one: its legal list is the root's.
        actor, legal, current, node, path = seat, root_legal, None, root, []
        while actor is not None:
            untried = []
            best, best_score = None, -1.0
            for action in legal:
                child = node.children.get((actor, action_key(action)))
                if child is None:
                    untried.append(action)
                    continue
                child.available += 1
                visits = max(child.visits, 1)
                score = child.reward / visits + EXPLORATION * math.sqrt(
                    math.log(child.available) / visits
                )
                if score > best_score:
                    best, best_score = child, score
            if untried:
                action = rng.choice(untried)
                child = Node(actor, action)
                child.available = 1
                node.children[(actor, action_key(action))] = child
            else:
                child, action = best, best.action
            current = server.game(
                game, "apply", {"state": state, "seat": actor, "action": action}
            )
            state = current["state"]
            path.append(child)
            node = child
            actor, legal = first_to_act(current)
            if untried:
                break
        if higher is not None and actor is not None:
            # One playout after a random action of the next seat: the final scores, ranked.
            rolled = server.game(
                game,
                "rollouts",
                {
                    "state": state,
                    "seat": actor,
                    "actions": [rng.choice(legal)],
                    "count": 1,
                    "policy": "random",
                    "seed": rng.randrange(2**53),
                },
            )
            scores = rolled["results"][0]["mean"]
            for node in path:
                node.visits += 1
                node.reward += standing(ranked(scores, higher), node.who, players)
            continue
        # Rollout: uniformly random moves to the end of the game.
        moves = 0
        while actor is not None and moves < MAX_ROLLOUT:
            current = server.game(
                game, "apply", {"state": state, "seat": actor, "action": rng.choice(legal)}
            )
            state = current["state"]
            actor, legal = first_to_act(current)
            moves += 1
        result = current["result"] if current["over"] else None
        for node in path:
            node.visits += 1
            node.reward += standing(result, node.who, players) if result else 0.5
    # The most visited of the root's actions.
    best = max(
        (c for c in root.children.values() if c.who == seat),
        key=lambda c: c.visits,
        default=None,
    )
    return best.action if best else root_legal[0]


def ranked(scores, higher):
    """A result's `ranking` from final scores: best first, equal scores sharing a place."""
    order = sorted(set(scores), reverse=higher)
    return {"ranking": [[s for s, v in enumerate(scores) if v == value] for value in order],
            "scores": scores}


def score_direction(server, game, players):
    """Whether a higher final score is better in `game`: read from the result of one game played
    with first legal actions (its `ranking` beside its `scores`). This file knows no rule."""
    for seed in range(1, 20):
        step = server.game(game, "new", {"players": players, "seed": seed})
        while not step["over"]:
            seat, legal = first_to_act(step)
            step = server.game(game, "apply", {"state": step["state"], "seat": seat, "action": legal[0]})
        result = step["result"]
        best, worst = result["ranking"][0][0], result["ranking"][-1][0]
        if result["scores"][best] != result["scores"][worst]:
            return result["scores"][best] > result["scores"][worst]
    return True


def heuristic(server, game, step, seat, legal):
    """The server's built-in `heuristic` bot's move, asked through the bot protocol."""
    view = server.game(game, "view", {"state": step["state"], "seat": seat})["view"]
    answer = server.post(
        "/bots/heuristic/move",
        {
            "match": "local",
            "game": game,
            "seat": seat,
            "view": view,
            "legal_actions": legal,
            "deadline_ms": 1000,
        },
    )
    return answer["action"]


def play(server, game, players, seed, searcher, iterations, rng, seconds=None):
    """One game from `seed`; `searcher` is the seat IS-MCTS plays (None: heuristic everywhere).
    Answers the final result."""
    step = server.game(game, "new", {"players": players, "seed": seed})
    while not step["over"]:
        seat, legal = first_to_act(step)
        if seat == searcher:
            action = search(server, game, step, seat, players, iterations, rng, seconds)
        else:
            action = heuristic(server, game, step, seat, legal)
        step = server.game(game, "apply", {"state": step["state"], "seat": seat, "action": action})
    return step["result"]


def duel(args):
    server = Server(args.base)
    rng = random.Random(args.rng_seed)
    started = time.monotonic()
    games, search_total, base_total = [], 0.0, 0.0
    wins = ties = losses = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        baseline = play(server, args.game, args.players, seed, None, 0, rng)
        for seat in range(args.players):
            result = play(
                server, args.game, args.players, seed, seat, args.iterations, rng, args.seconds
            )
            mine = standing(result, seat, args.players)
            theirs = standing(baseline, seat, args.players)
            search_total += mine
            base_total += theirs
            wins += mine > theirs
            ties += mine == theirs
            losses += mine < theirs
            games.append(
                {"seed": seed, "seat": seat, "ismcts": mine, "heuristic": theirs, "result": result}
            )
            if not args.json:
                print(
                    f"seed {seed} seat {seat}: ismcts {mine:.3f}, heuristic {theirs:.3f}",
                    flush=True,
                )
    n = len(games)
    summary = {
        "game": args.game,
        "players": args.players,
        "iterations": args.iterations,
        "games": n,
        "ismcts_standing": search_total / n,
        "heuristic_standing": base_total / n,
        "better": wins,
        "level": ties,
        "worse": losses,
        # A level game counts half, as in the engine's bench.
        "won": (wins + ties / 2) / n,
        "calls": server.calls,
        "seconds": round(time.monotonic() - started, 1),
    }
    if args.json:
        print(json.dumps({"summary": summary, "games": games}))
    else:
        print(
            f"{args.game} ({args.players} players), {n} duplicate games, "
            f"{args.iterations} iterations per move: standing ismcts {summary['ismcts_standing']:.3f} "
            f"vs heuristic {summary['heuristic_standing']:.3f}; better in {wins}, level in {ties}, "
            f"worse in {losses} (won {100 * summary['won']:.0f}%); "
            f"{server.calls} calls in {summary['seconds']} s"
        )


def verified(secret, headers, body):
    """Whether a request is signed with `secret` (or with the secret a rotation replaced, sent
    beside it for 10 minutes), its timestamp within 300 s. Without a secret every request is."""
    if not secret:
        return True
    timestamp = headers.get("X-Cardroom-Timestamp", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > 300:
        return False
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    expected = "sha256=" + digest.hexdigest()
    return any(
        hmac.compare_digest(expected, headers.get(name, ""))
        for name in ("X-Cardroom-Signature", "X-Cardroom-Signature-Previous")
    )


def serve(args):
    """The search as an arena bot: `info` in, an action out, within the move's deadline."""
    secret = os.environ.get("CARDROOM_SIGNING_SECRET", "")
    games = {}  # (game id, players) -> whether a higher score is better
    rng = random.Random(args.rng_seed)

    class Bot(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def answer(self, status, document):
            body = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

        def do_GET(self):
            if not verified(secret, self.headers, b""):
                return self.answer(401, {"error": "bad signature"})
            self.answer(200, {"name": "ismcts.py", "author": "cardroom examples", "version": "1",
                              "games": args.games.split(",")})

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            if not verified(secret, self.headers, body):
                return self.answer(401, {"error": "bad signature"})
            if self.path != "/move":
                # `/start` and `/end` notices: any 2xx will do.
                return self.answer(200 if self.path in ("/start", "/end") else 404, {})
            request = json.loads(body)
            game, seat, legal = request["game"], request["seat"], request["legal_actions"]
            server = Server(args.cardroom)
            if len(legal) == 1:
                return self.answer(200, {"action": legal[0]})
            # The table size: one score per seat in a rollout from the seat's own position.
            probe = {"info": request["info"], "count": 1, "policy": "random", "actions": legal[:1]}
            players = len(server.game(game, "rollouts", probe)["results"][0]["mean"])
            if (game, players) not in games:
                games[(game, players)] = score_direction(server, game, players)
            step = {"legal_actions": [{"seat": seat, "actions": legal}]}
            budget = min(args.seconds, request["deadline_ms"] / 2000)
            action = search(server, game, step, seat, players, args.iterations, rng, budget,
                            info=request["info"], higher=games[(game, players)])
            self.answer(200, {"action": action, "comment": f"{server.calls} calls"})

    httpd = http.server.ThreadingHTTPServer((args.host, args.port), Bot)
    print(f"listening on http://{args.host}:{httpd.server_address[1]}", flush=True)
    httpd.serve_forever()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    d = commands.add_parser("duel", help="duplicate games: IS-MCTS in one seat against heuristic")
    d.add_argument("--base", default="http://127.0.0.1:8080", help="the server's base URL")
    d.add_argument("--game", default="bird_dog_short")
    d.add_argument("--players", type=int, default=3)
    d.add_argument("--seeds", type=int, default=10, help="deals, each played once per seat")
    d.add_argument("--first-seed", type=int, default=1)
    d.add_argument("--iterations", type=int, default=100, help="IS-MCTS iterations per move")
    d.add_argument("--seconds", type=float, default=None, help="also stop a move's search after")
    d.add_argument("--rng-seed", type=int, default=7, help="the search's own random choices")
    d.add_argument("--json", action="store_true", help="one JSON document instead of lines")
    b = commands.add_parser("serve", help="an arena bot searching from each move's `info`")
    b.add_argument("--cardroom", default="http://127.0.0.1:8080", help="the rules API's base URL")
    b.add_argument("--host", default="127.0.0.1")
    b.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    b.add_argument("--games", default="bird_dog_short,twenty_two", help="comma-separated game ids")
    b.add_argument("--iterations", type=int, default=1000, help="IS-MCTS iterations per move at most")
    b.add_argument("--seconds", type=float, default=0.4, help="search time per move at most")
    b.add_argument("--rng-seed", type=int, default=7, help="the search's own random choices")
    args = parser.parse_args(argv)
    try:
        (serve if args.command == "serve" else duel)(args)
    except Problem as problem:
        sys.exit(str(problem))


if __name__ == "__main__":
    main()
