"""The policy: which legal action to play. Make it your own."""

from typing import List

from .protocol import Action, MoveRequest

RANKS = "23456789TJQKA"


def rank_of(code: str) -> int:
    """Rank of a card code ("TH" -> 8, "AS" -> 12, "JK" -> 13); -1 for anything else (tiles)."""
    if code == "JK":
        return len(RANKS)
    if isinstance(code, str) and len(code) == 2 and code[0] in RANKS:
        return RANKS.index(code[0])
    return -1


def cards_of(action: Action) -> List[str]:
    """The cards an action names: its ``cards`` list or its single ``card``."""
    if isinstance(action.get("cards"), list):
        return action["cards"]
    card = action.get("card")
    return [card] if isinstance(card, str) else []


def choose(request: MoveRequest) -> Action:
    """Shed high cards early, as a penalty game like 22 rewards.

    Each legal action gets a score and the best one wins (ties keep the engine's canonical
    order): in the exchange, discard a ten or better, otherwise draw; leading (no target to
    beat), play the highest card, as a set if possible; following, the highest total. Actions
    naming no card (accept, fold, ...) keep the canonical order.

    ``request["view"]`` is what your seat may see; answer one of ``request["legal_actions"]``
    exactly as sent.
    """
    legal = request["legal_actions"]
    leading = request["view"].get("target") is None
    best, best_score = 0, float("-inf")
    for index, action in enumerate(legal):
        ranks = [rank_of(card) for card in cards_of(action)]
        top = max(ranks, default=-1)
        kind = action.get("type")
        if kind == "draw":
            score = 100
        elif kind == "discard":
            score = 200 + top if top >= RANKS.index("T") else 0
        elif ranks:
            score = top * 100 + len(ranks) if leading else sum(max(r, 0) for r in ranks) * 100 + top
        else:
            score = 0
        if score > best_score:
            best, best_score = index, score
    return legal[best]
