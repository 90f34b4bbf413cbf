#!/usr/bin/env python3
"""A complete cardroom arena bot in plain Python (standard library only).

It serves the bot protocol (openapi/bot-protocol.json, docs/bots.md):
  GET  /       -> {"name", "author", "version", "games"}
  POST /move   -> {"action": one of legal_actions}
  POST /start, POST /end -> 204 (notifications)

Every request from the arena is signed: X-Cardroom-Timestamp (unix seconds) and
X-Cardroom-Signature: sha256=<hex HMAC-SHA256(signing_secret, timestamp + "." + raw body)>.
Set CARDROOM_SIGNING_SECRET to the secret the arena returned at registration to refuse
unsigned or forged requests (before registration, leave it unset: the probe cannot be
verified yet because the secret does not exist until registration answers).

Usage: python3 bot.py [--port 8765] [--games twenty_two,...]
"""

import argparse
import hashlib
import hmac
import json
import os
import random
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_SKEW_SECONDS = 300


def verify(secret: str, timestamp: str, signature: str, body: bytes) -> bool:
    """True if the signature is the HMAC of timestamp + "." + body and the time is recent."""
    try:
        if abs(time.time() - int(timestamp)) > MAX_SKEW_SECONDS:
            return False
    except (TypeError, ValueError):
        return False
    expected = "sha256=" + hmac.new(
        secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256
    ).hexdigest()
    return hmac.compare_digest(expected, signature or "")


def choose(request: dict):
    """The strategy: pick a legal action. Replace this with something clever.

    `request["view"]` is what this seat may see; `request["legal_actions"]` lists every
    legal action in the engine's canonical order; answer one of them exactly as sent.
    """
    legal = request["legal_actions"]
    return random.choice(legal)


class Bot(BaseHTTPRequestHandler):
    games: list = []
    secret: str = ""

    def _body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _signed(self, body: bytes) -> bool:
        if not self.secret:
            return True
        return verify(
            self.secret,
            self.headers.get("X-Cardroom-Timestamp", ""),
            self.headers.get("X-Cardroom-Signature", ""),
            body,
        )

    def _json(self, status: int, payload) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if not self._signed(b""):
            return self._json(401, {"error": "bad signature"})
        if self.path.rstrip("/") == "":
            return self._json(200, {
                "name": "python-example",
                "author": "cardroom",
                "version": "1.0.0",
                "games": self.games,
            })
        self._json(404, {"error": "not found"})

    def do_POST(self):
        body = self._body()
        if not self._signed(body):
            return self._json(401, {"error": "bad signature"})
        if self.path == "/move":
            request = json.loads(body)
            return self._json(200, {"action": choose(request)})
        if self.path in ("/start", "/end"):
            self.send_response(204)
            self.end_headers()
            return
        self._json(404, {"error": "not found"})

    def log_message(self, fmt, *args):  # quieter logs
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--games", default="twenty_two")
    args = parser.parse_args()
    Bot.games = [g for g in args.games.split(",") if g]
    Bot.secret = os.environ.get("CARDROOM_SIGNING_SECRET", "")
    server = ThreadingHTTPServer((args.host, args.port), Bot)
    print(f"bot listening on http://{args.host}:{args.port}/ for {Bot.games}")
    server.serve_forever()


if __name__ == "__main__":
    main()
