#!/usr/bin/env python3
"""Every game id's random-playout throughput beside OpenSpiel's C++ loops on hearts, one run.

Two OpenSpiel references: whole games from the initial state by uniform random bots
(`pyspiel.evaluate_bots`, deal included: like for like, the goal is judged against it), and the
stricter post-deal MCTS rollouts described next.

Run through bench/openspiel_compare.sh (it builds cardroom and installs OpenSpiel). Environment:
CARDROOM_BIN, SECONDS_PER_ID, OPENSPIEL_SECONDS, GOAL, ONLY (substring filter on ids), BASELINE (a
second cardroom binary, run right before this one on every id: two builds' ratios in one run).

OpenSpiel side: pyspiel does not expose a bare playout loop, but its MCTS bot with the C++
`RandomRolloutEvaluator` is one: with two simulations and n rollouts, `step` plays 2n uniformly
random games to the end in C++ (clone, then `LegalActions` + uniform pick + `ApplyAction` until
terminal), first from the root, then from one child. The roots are hearts states just after the
deal (hearts has no chance after it), so every step of a rollout is a player decision; the number
of decisions from a root is fixed (52 plays, plus 12 passes when the deal passes), counted once in
Python. Dealing is left out on OpenSpiel's side (it is in cardroom's figures), which only raises
the bar. OpenSpiel is timed before and after the cardroom runs; the ratio uses the faster of the
two, so a PASS never rests on a slow OpenSpiel moment.

cardroom side: `cardroom playouts --game ID --players N --seconds S` for every id of the catalog
(GET /v1/games of a throwaway `cardroom serve` on 127.0.0.1), at the family's usual player counts
(FAMILY_PLAYERS, clamped to the id's range; an unknown family plays at its minimum).
"""

import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

# The usual table sizes per family (the figures quoted in issue 12 use these).
FAMILY_PLAYERS = {
    "twenty_two": [4],
    "sloppy_seconds": [3],
    "marglia": [4],
    "maniglia": [4],
    "watten": [4, 2],
    "chinese_ten": [4],
    "basra": [2, 4],
    "taihe_abao": [4],
    "tjak_mat_tchi_ki": [4],
    "trump_crew": [4],
    "bird_dog": [3, 2],
}

BIN = os.environ.get("CARDROOM_BIN", "target/release/cardroom")
BASELINE = os.environ.get("BASELINE", "")
SECONDS_PER_ID = float(os.environ.get("SECONDS_PER_ID", "2"))
OPENSPIEL_SECONDS = float(os.environ.get("OPENSPIEL_SECONDS", "3"))
GOAL = float(os.environ.get("GOAL", "5"))
ONLY = os.environ.get("ONLY", "")


def log(message):
    print(f"# {message}", file=sys.stderr, flush=True)


def catalog():
    """The game catalog from a throwaway server (its own database, no ladder, loopback only)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, CARDROOM_LOG="warn")
        server = subprocess.Popen(
            [BIN, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-ladder",
             "--database", os.path.join(tmp, "catalog.db")],
            env=env, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/games", timeout=2) as r:
                        return json.load(r)
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"cardroom serve did not answer on port {port}")
                    time.sleep(0.1)
        finally:
            server.terminate()
            server.wait(timeout=15)


def runs(games):
    """(id, players) pairs: every id at its family's usual counts within its range."""
    pairs = []
    for game in games:
        if ONLY and ONLY not in game["id"]:
            continue
        low, high = game["players"]["min"], game["players"]["max"]
        wanted = [n for n in FAMILY_PLAYERS.get(game["family"], []) if low <= n <= high]
        for n in wanted or [low]:
            pairs.append((game["id"], n))
    return pairs


def cardroom_playouts(game, players, binary=BIN):
    out = subprocess.run(
        [binary, "playouts", "--game", game, "--players", str(players), "--seconds", str(SECONDS_PER_ID)],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["actions_per_s"]


def openspiel_hearts():
    """Player decisions per second of OpenSpiel's C++ random playouts on hearts, or None."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    chooser = random.Random(2026)
    roots = []
    for _ in range(4):
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(chooser.choices(outcomes, probs)[0])
        probe, decisions = state.clone(), 0
        while not probe.is_terminal():
            assert not probe.is_chance_node(), "hearts has no chance after the deal"
            probe.apply_action(chooser.choice(probe.legal_actions()))
            decisions += 1
        roots.append((state, decisions))

    def timed(rollouts):
        total_decisions, started = 0, time.perf_counter()
        for index, (root, decisions) in enumerate(roots):
            evaluator = pyspiel.RandomRolloutEvaluator(rollouts, 17 + index)
            bot = pyspiel.MCTSBot(game, evaluator, 2.0, 2, 1000, False, 17 + index, False)
            bot.step(root)
            # n rollouts from the root, n from a child one decision further.
            total_decisions += rollouts * (2 * decisions - 1)
        return total_decisions, time.perf_counter() - started

    decisions, seconds = timed(50)  # warm-up and calibration
    rollouts = max(50, int(50 * OPENSPIEL_SECONDS / max(seconds, 1e-3)))
    decisions, seconds = timed(rollouts)
    return decisions / seconds


def openspiel_hearts_full_games():
    """Player decisions per second of whole hearts games played in C++ from the initial state by
    OpenSpiel's uniform random bots (`pyspiel.evaluate_bots`: the deal's chance nodes sampled,
    then every decision), or None. This is the like-for-like loop: cardroom's playouts deal too."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    players = game.num_players()
    # Decisions per game are fixed in hearts (52 plays, plus 12 passes when the deal passes):
    # count them once on a game played in Python.
    chooser = random.Random(7)
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(chooser.choices(outcomes, probs)[0])
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
            decisions += 1
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(players)]

    def timed(games):
        started = time.perf_counter()
        for index in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, 1000 + index)
        return games * decisions, time.perf_counter() - started

    _, seconds = timed(200)  # warm-up and calibration
    games = max(200, int(200 * OPENSPIEL_SECONDS / max(seconds, 1e-3)))
    played, seconds = timed(games)
    return played / seconds


def main():
    games = catalog()
    pairs = runs(games)
    log(f"{len(games)} game ids, {len(pairs)} runs of {SECONDS_PER_ID} s; OpenSpiel {OPENSPIEL_SECONDS} s before and after")
    before = openspiel_hearts()
    full_before = openspiel_hearts_full_games()
    if before is None:
        log("pyspiel is not importable: no OpenSpiel reference in this run")
    else:
        log(f"OpenSpiel hearts (before): {before / 1e6:.3f} M decisions/s post-deal rollouts, "
            f"{full_before / 1e6:.3f} M whole games")
    results = []
    for game, players in pairs:
        # The baseline first, then this build, id by id: the two see the same moment's load.
        base = cardroom_playouts(game, players, BASELINE) if BASELINE else None
        rate = cardroom_playouts(game, players)
        results.append((game, players, rate, base))
        baseline_note = f" (baseline {base / 1e6:.3f} M)" if base else ""
        log(f"{game} {players}p: {rate / 1e6:.3f} M actions/s{baseline_note}")
    after = openspiel_hearts()
    full_after = openspiel_hearts_full_games()
    reference = strict = None
    if before is not None and after is not None:
        # The goal is judged against the like-for-like loop (whole games, deal included); the
        # post-deal MCTS rollouts are printed beside it as a stricter bar.
        reference = max(full_before, full_after)
        strict = max(before, after)
        log(f"OpenSpiel hearts (after): {after / 1e6:.3f} M decisions/s post-deal rollouts, "
            f"{full_after / 1e6:.3f} M whole games")

    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(f"# {when}, {os.cpu_count()} cores, {SECONDS_PER_ID} s per run, goal {GOAL:g}x OpenSpiel hearts")
    if reference is not None:
        print(f"# OpenSpiel hearts, whole games by uniform random bots in C++ (evaluate_bots): "
              f"{full_before / 1e6:.3f} M decisions/s before, {full_after / 1e6:.3f} M after; "
              f"ratio uses {reference / 1e6:.3f} M")
        print(f"# OpenSpiel hearts, post-deal MCTS random rollouts (stricter): {before / 1e6:.3f} M "
              f"before, {after / 1e6:.3f} M after; strict ratio uses {strict / 1e6:.3f} M")
    if BASELINE:
        print(f"# baseline: {BASELINE}, run right before this build ({BIN}) on every id")
    baseline_columns = f" {'baseline':>12} {'ratio':>7}" if BASELINE else ""
    print(f"{'id':<28} {'players':>7} {'actions/s':>12} {'ratio':>7} {'strict':>7}  goal{baseline_columns}")
    failed = 0
    for game, players, rate, base in results:
        if reference is None:
            ratio, strict_ratio, verdict = "n/a", "n/a", "n/a"
        else:
            ratio = f"{rate / reference:.2f}x"
            strict_ratio = f"{rate / strict:.2f}x"
            verdict = "PASS" if rate >= GOAL * reference else "FAIL"
            failed += verdict == "FAIL"
        baseline = ""
        if base is not None:
            base_ratio = f"{base / reference:.2f}x" if reference is not None else "n/a"
            baseline = f" {base / 1e6:>10.3f} M {base_ratio:>7}"
        print(f"{game:<28} {players:>7} {rate / 1e6:>10.3f} M {ratio:>7} {strict_ratio:>7}  {verdict}{baseline}")
    if reference is None:
        return 2
    print(f"# {len(results) - failed} of {len(results)} runs at or above {GOAL:g}x")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
