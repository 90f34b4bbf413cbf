"""The bot's HTTP server: ``GET /``, ``POST /move``, ``POST /start``, ``POST /end``.

With ``CARDROOM_SIGNING_SECRET`` set, unsigned, forged or stale requests are answered 401.
Without it every request is accepted: that is only for the first registration probe, before the
arena has told you the secret.
"""

import argparse
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, List, Optional

from .protocol import BotInfo, EndNotice, MoveRequest, MoveResponse, StartNotice, verify_any
from .search import DEFAULT_PLAYOUTS, Search, decide

#: Largest request body read; a long match's history stays far below it.
BODY_LIMIT = 8 * 1024 * 1024


class BotHandler(BaseHTTPRequestHandler):
    """One request from the arena. Configured through the server's attributes."""

    server: "BotServer"

    def _body(self) -> Optional[bytes]:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            return None
        if not 0 <= length <= BODY_LIMIT:
            return None
        return self.rfile.read(length) if length else b""

    def _signed(self, body: bytes) -> bool:
        secret = self.server.secret
        if not secret:
            return True
        return verify_any(
            secret,
            self.headers.get("X-Cardroom-Timestamp"),
            [
                self.headers.get("X-Cardroom-Signature"),
                self.headers.get("X-Cardroom-Signature-Previous"),
            ],
            body,
        )

    def _json(self, status: int, payload: Any = None) -> None:
        data = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        if payload is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _path(self) -> str:
        return self.path.split("?", 1)[0].rstrip("/") or "/"

    def do_GET(self) -> None:  # noqa: N802 (the http.server naming)
        if not self._signed(b""):
            return self._json(401, {"error": "bad or stale signature"})
        if self._path() != "/":
            return self._json(404, {"error": "not found"})
        info: BotInfo = {
            "name": self.server.name,
            "author": "cardroom starter",
            "version": "1.0.0",
            "games": self.server.games,
        }
        self._json(200, info)

    def do_POST(self) -> None:  # noqa: N802
        body = self._body()
        if body is None:
            return self._json(413, {"error": "request body too large or of unknown length"})
        if not self._signed(body):
            return self._json(401, {"error": "bad or stale signature"})
        try:
            message = json.loads(body)
        except ValueError:
            return self._json(400, {"error": "the body is not JSON"})
        path = self._path()
        if path == "/move":
            request: MoveRequest = message
            if not request.get("legal_actions"):
                return self._json(400, {"error": "no legal_actions to choose from"})
            answer: MoveResponse = decide(request, self.server.search)
            return self._json(200, answer)
        if path == "/start":
            start: StartNotice = message
            self.log(f"match {start['match']} ({start['game']}) started: seat {start['seat']}")
            return self._json(204)
        if path == "/end":
            end: EndNotice = message
            result = end.get("result", {})
            self.log(
                f"match {end['match']} ended: ranking {result.get('ranking')} "
                f"scores {result.get('scores')}"
            )
            return self._json(204)
        self._json(404, {"error": "not found"})

    def log(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # one line per request would drown the match notices


class BotServer(ThreadingHTTPServer):
    """The HTTP server with the bot's settings."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple,
        name: str,
        games: List[str],
        secret: str,
        search: Optional[Search] = None,
    ) -> None:
        super().__init__(address, BotHandler)
        self.name = name
        self.games = games
        self.secret = secret
        self.search = search


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description="A cardroom arena bot (standard library only).")
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--games", default="twenty_two", help="comma-separated game ids")
    parser.add_argument("--name", default="python-starter")
    parser.add_argument(
        "--connect",
        metavar="URL",
        help="stream mode: connect out to the arena at URL instead of serving (needs --token)",
    )
    parser.add_argument(
        "--token", default=os.environ.get("CARDROOM_TOKEN", ""), help="the bot's token (stream mode)"
    )
    parser.add_argument(
        "--search",
        metavar="URL",
        help="play each choice by rollouts over the rules API at URL (the request's `info`)",
    )
    parser.add_argument(
        "--playouts", type=int, default=DEFAULT_PLAYOUTS, help="playouts per action (--search)"
    )
    args = parser.parse_args(argv)
    search = Search(args.search, args.playouts) if args.search else None
    if args.connect:
        if not args.token:
            parser.error("--connect needs --token (or CARDROOM_TOKEN)")
        from .stream import run

        try:
            run(args.connect, args.token, search)
        except KeyboardInterrupt:
            pass
        return
    secret = os.environ.get("CARDROOM_SIGNING_SECRET", "")
    if not secret:
        print(
            "CARDROOM_SIGNING_SECRET is not set: accepting unsigned requests (only for registering)",
            file=sys.stderr,
        )
    games = [g for g in args.games.split(",") if g]
    server = BotServer((args.host, args.port), args.name, games, secret, search)
    host, port = server.server_address[:2]
    host = f"[{host}]" if ":" in host else host
    print(f"listening on http://{host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
