"""The stream mode: the bot connects out to the arena, no server of its own (for a laptop behind
NAT or a firewall). ``GET /v1/bot/stream`` with the bot's token gives one JSON object per line
(``match_start``, ``move``, ``match_end``; an empty line every 10 s keeps the connection open);
each ``move`` is answered with ``POST /v1/bot/matches/{match_id}/move``. The token is the
credential (no signatures to check); TLS is the deployment's. A dropped connection is opened
again at once, replacing it (``?replace=true``: the arena may not have seen it end): the arena
sends the moves still waiting for an answer first, each with the time it has left. A first
connection does not replace: if another process of the bot is connected, the arena answers 409
``already_connected`` and the bot stops.
"""

import json
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Dict, Optional

from .search import Search, decide

#: How long to wait before connecting again after a failure, at most.
RECONNECT_MAX_SECONDS = 5.0
#: A connection with no line (not even a keep-alive) for this long is taken as dead.
READ_TIMEOUT_SECONDS = 30.0


def answer(base: str, token: str, line: Dict[str, Any], search: Optional[Search]) -> None:
    """Answers one ``move`` line with the strategy's choice (searched with ``search``)."""
    body = json.dumps({"request_id": line["request_id"], **decide(line, search)}).encode()
    request = urllib.request.Request(
        f"{base}/v1/bot/matches/{line['match_id']}/move",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=READ_TIMEOUT_SECONDS):
            pass
    except urllib.error.HTTPError as error:
        # 409: the request was answered or timed out meanwhile; 422: not a legal action.
        print(f"answer refused: HTTP {error.code} {error.read()[:200]!r}", file=sys.stderr)
    except OSError as error:
        print(f"answer not sent: {error}", file=sys.stderr)


def read_stream(base: str, token: str, search: Optional[Search], replace: bool = False) -> None:
    """Reads one connection to its end, answering each ``move`` on a thread of its own;
    ``replace``: the connection replaces the bot's previous one (after a drop)."""
    query = "?replace=true" if replace else ""
    request = urllib.request.Request(
        f"{base}/v1/bot/stream{query}", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=READ_TIMEOUT_SECONDS) as stream:
        print(f"connected to {base}", flush=True)
        for raw in stream:
            if not raw.strip():
                continue  # keep-alive
            line = json.loads(raw)
            kind = line.get("type")
            if kind == "move":
                threading.Thread(
                    target=answer, args=(base, token, line, search), daemon=True
                ).start()
            elif kind == "match_start":
                print(f"match {line['match_id']} ({line['game']}) started: seat {line['seat']}",
                      file=sys.stderr, flush=True)
            elif kind == "match_end":
                result = line.get("result", {})
                print(f"match {line['match_id']} ended: ranking {result.get('ranking')} "
                      f"scores {result.get('scores')}", file=sys.stderr, flush=True)


def run(base: str, token: str, search: Optional[Search] = None) -> None:
    """Stays connected until interrupted, connecting again after each failure."""
    base = base.rstrip("/")
    wait = 0.1
    replace = False
    while True:
        try:
            # Every later connection replaces the one that dropped.
            connecting, replace = replace, True
            read_stream(base, token, search, connecting)
            wait = 0.1
        except urllib.error.HTTPError as error:
            if error.code in (401, 403):
                sys.exit(f"the arena refused the token: HTTP {error.code} {error.read()[:200]!r}")
            if error.code == 409:
                sys.exit("another process of this bot is connected (stop it first): "
                         f"HTTP 409 {error.read()[:200]!r}")
            print(f"stream failed: HTTP {error.code}", file=sys.stderr)
        except (OSError, ValueError) as error:
            print(f"stream failed: {error}", file=sys.stderr)
        time.sleep(wait)
        wait = min(wait * 2, RECONNECT_MAX_SECONDS)
