"""The search example: flat Monte Carlo over the rules API.

Every move request carries ``info``, a token naming this seat's position.
``POST {api}/v1/games/{game}/rollouts`` plays ``playouts`` games to the end after each legal
action, from deals this seat cannot tell from the real one, and answers each seat's
``mean_standing`` (0 sole last .. 1 sole first, whichever way the game counts its scores). The
action with the best standing for our seat wins; a forced move, or a failed call, falls back to
the simple policy (``strategy.choose``).
"""

import json
import urllib.error
import urllib.request
from typing import Any, Dict, List, NamedTuple, Optional

from .protocol import MoveRequest, MoveResponse
from .strategy import choose

#: Playouts per legal action (``--playouts``).
DEFAULT_PLAYOUTS = 16


class Search(NamedTuple):
    """Where and how hard to search."""

    api: str
    playouts: int = DEFAULT_PLAYOUTS


def best_of(results: List[Dict[str, Any]], seat: int, playouts: int) -> MoveResponse:
    """The answer with the best mean standing for ``seat`` (ties keep the canonical order)."""
    best = results[0]
    for result in results:
        if result["mean_standing"][seat] > best["mean_standing"][seat]:
            best = result
    standing = best["mean_standing"][seat]
    return {
        "action": best["action"],
        "comment": f"rollouts: {playouts} per action, best standing {standing:.2f}",
    }


def search_choose(request: MoveRequest, search: Search) -> MoveResponse:
    """The action (and a comment) chosen by rollouts from the request's ``info``."""
    legal = request["legal_actions"]
    if len(legal) < 2 or not request.get("info"):
        return {"action": choose(request), "comment": "forced"}
    body = json.dumps({"info": request["info"], "count": search.playouts, "policy": "heuristic"})
    call = urllib.request.Request(
        f"{search.api.rstrip('/')}/v1/games/{request['game']}/rollouts",
        data=body.encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    # Leave time to answer: the search gets about half the move's deadline.
    timeout = max(0.05, request["deadline_ms"] / 2000)
    try:
        with urllib.request.urlopen(call, timeout=timeout) as response:
            rolled = json.load(response)
        return best_of(rolled["results"], request["seat"], search.playouts)
    except urllib.error.HTTPError as error:
        reason = f"HTTP {error.code} {error.read()[:200]!r}"
    except (OSError, ValueError, KeyError, IndexError) as error:
        reason = str(error)
    return {"action": choose(request), "comment": f"search failed ({reason}): the simple policy"}


def decide(request: MoveRequest, search: Optional[Search]) -> MoveResponse:
    """The answer to a move request: searched when ``search`` is set, else the simple policy."""
    return search_choose(request, search) if search else {"action": choose(request)}
