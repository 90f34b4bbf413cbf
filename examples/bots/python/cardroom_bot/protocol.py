"""The bot protocol (docs/bots.md, openapi/bot-protocol.json) as typed dictionaries, and the
check of the arena's request signatures.

Every request from the arena carries ``X-Cardroom-Timestamp`` (unix seconds) and
``X-Cardroom-Signature: sha256=<hex HMAC-SHA256(signing_secret, timestamp + "." + raw body)>``;
for 10 minutes after a rotation of the secret, also ``X-Cardroom-Signature-Previous``, the same
signature made with the replaced secret.
"""

import hashlib
import hmac
import time
from typing import Any, Dict, List, Optional, Sequence, TypedDict

#: Requests signed further than this from our clock are refused (a replayed request).
MAX_SKEW_SECONDS = 300

#: An action: a small JSON object with a ``type``, e.g. ``{"type": "play", "cards": ["7H"]}``.
Action = Dict[str, Any]
#: An event of the game, e.g. ``{"type": "draw", "seat": 1, "count": 2}``.
Event = Dict[str, Any]


class BotInfo(TypedDict):
    """The answer to ``GET /``."""

    name: str
    author: str
    version: str
    games: List[str]


class _HistoryEntryRequired(TypedDict):
    seat: int
    events: List[Event]


class HistoryEntry(_HistoryEntryRequired, total=False):
    """A previous move: who acted, its public events, and the action for our own moves only."""

    action: Action


class TwentyTwoView(TypedDict, total=False):
    """Some fields of a seat's view in ``twenty_two`` (docs/rules/twenty_two.md, "View")."""

    seat: Optional[int]
    hand: List[str]
    phase: str
    hand_sizes: List[int]
    stock_size: int
    totals: List[int]
    target: Optional[List[str]]
    trick: List[Dict[str, Any]]


class _MoveRequestRequired(TypedDict):
    match: str
    game: str
    seat: int
    view: Dict[str, Any]
    legal_actions: List[Action]
    deadline_ms: int


class MoveRequest(_MoveRequestRequired, total=False):
    """``POST /move``: answer one of ``legal_actions`` exactly as sent, within ``deadline_ms``.

    ``view`` is what this seat may see (for 22, see :class:`TwentyTwoView`); ``history`` every
    move so far as this seat may know it.
    """

    history: List[HistoryEntry]


class _MoveResponseRequired(TypedDict):
    action: Action


class MoveResponse(_MoveResponseRequired, total=False):
    """The answer to ``POST /move``; the comment is kept in the match log."""

    comment: str


class SeatInfo(TypedDict):
    """A seat of a match and its bot."""

    seat: int
    bot: str
    name: str


class StartNotice(TypedDict):
    """``POST /start``: a match begins."""

    match: str
    game: str
    seat: int
    seats: List[SeatInfo]
    options: Dict[str, Any]
    deadline_ms: int


class EndNotice(TypedDict):
    """``POST /end``: a match ended; ``result`` holds ``ranking``, ``scores``, ``faults``, ..."""

    match: str
    game: str
    seat: int
    result: Dict[str, Any]


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The signature header value for ``body`` signed at ``timestamp``."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def verify(
    secret: str,
    timestamp: Optional[str],
    signature: Optional[str],
    body: bytes,
    now: Optional[float] = None,
) -> bool:
    """True if ``signature`` is the arena's HMAC of ``timestamp + "." + body`` and the timestamp
    is within :data:`MAX_SKEW_SECONDS` of ``now``. Compared in constant time."""
    if not timestamp or not (timestamp.isascii() and timestamp.isdigit()) or len(timestamp) > 15:
        return False
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > MAX_SKEW_SECONDS:
        return False
    return hmac.compare_digest(sign(secret, timestamp, body), signature or "")


def verify_any(
    secret: str,
    timestamp: Optional[str],
    signatures: Sequence[Optional[str]],
    body: bytes,
    now: Optional[float] = None,
) -> bool:
    """True if one of ``signatures`` verifies (see :func:`verify`): after the owner rotates the
    secret, the arena sends ``X-Cardroom-Signature`` made with the new secret and, for 10 minutes,
    ``X-Cardroom-Signature-Previous`` made with the replaced one, so the bot works with either."""
    return any(
        signature is not None and verify(secret, timestamp, signature, body, now)
        for signature in signatures
    )
