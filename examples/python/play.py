#!/usr/bin/env python3
"""Plays a whole game against a running cardroom server with the standard library only (urllib).

    cargo run --release -- serve &
    python3 examples/python/play.py [BASE_URL] [GAME] [PLAYERS]

Seat 0 plays the last legal action, the others the first one. Errors are problem+json documents
with a stable `code` (see /docs).
"""
import json
import sys
import urllib.error
import urllib.request

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
GAME = sys.argv[2] if len(sys.argv) > 2 else "twenty_two"
PLAYERS = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def call(op, body):
    request = urllib.request.Request(
        f"{BASE}/v1/games/{GAME}/{op}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        problem = json.load(error)
        raise SystemExit(f"{problem['code']}: {problem['detail']}")


step = call("new", {"players": PLAYERS, "seed": 42})
moves = 0
while not step["over"]:
    entry = step["legal_actions"][0]
    action = entry["actions"][-1] if entry["seat"] == 0 else entry["actions"][0]
    step = call("apply", {"state": step["state"], "seat": entry["seat"], "action": action})
    moves += 1
print(f"game over after {moves} moves")
print("ranking (best first):", step["result"]["ranking"], "scores:", step["result"]["scores"])
