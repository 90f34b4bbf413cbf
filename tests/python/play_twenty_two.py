"""Plays a full game of twenty-two through a client generated from openapi/cardroom.json.

Run by the e2e test `a_generated_python_client_plays_a_full_game_of_twenty_two`:
    PYTHONPATH=<generated client dir> python play_twenty_two.py BASE_URL
"""
import sys

from cardroom_client import Client
from cardroom_client.api.rules import (
    apply_action,
    describe_game,
    legal_actions,
    list_games,
    new_game,
    replay_game,
    view_state,
)
from cardroom_client.models import (
    ApplyRequest,
    LegalRequest,
    NewGameRequest,
    Problem,
    ReplayRequest,
    SeatAction,
    Step,
    ViewRequest,
)

GAME = "twenty_two"
base = sys.argv[1]
client = Client(base_url=base, raise_on_unexpected_status=True)

catalog = list_games.sync(client=client)
assert any(g.id == GAME for g in catalog), [g.id for g in catalog]
entry = describe_game.sync(GAME, client=client)
assert entry.players.min_ <= 3 <= entry.players.max_, entry.players

step = new_game.sync(GAME, client=client, body=NewGameRequest(players=3, seed=2026))
assert isinstance(step, Step), step
assert not step.over

seat0 = view_state.sync(GAME, client=client, body=ViewRequest(state=step.state, seat=0))
assert seat0.seat == 0 and seat0.view is not None

first = step.legal_actions[0]
legal = legal_actions.sync(GAME, client=client, body=LegalRequest(state=step.state, seat=first.seat))
assert legal.actions == first.actions, (legal.actions, first.actions)

# A refused action comes back as a Problem with a stable code.
wrong = next(s for s in range(3) if s not in step.to_act)
problem = apply_action.sync(
    GAME, client=client, body=ApplyRequest(state=step.state, seat=wrong, action=first.actions[0])
)
assert isinstance(problem, Problem) and problem.code.value == "not_your_turn", problem

history = []
moves = 0
while not step.over:
    entry = step.legal_actions[moves % len(step.legal_actions)]
    action = entry.actions[(moves * 5 + 2) % len(entry.actions)]
    step = apply_action.sync(
        GAME, client=client, body=ApplyRequest(state=step.state, seat=entry.seat, action=action)
    )
    assert isinstance(step, Step), step
    history.append(SeatAction(seat=entry.seat, action=action))
    moves += 1
    assert moves < 5000, "the game does not end"

ranking = step.result.ranking
assert sorted(s for group in ranking for s in group) == [0, 1, 2], ranking
assert len(step.result.scores) == 3

replayed = replay_game.sync(
    GAME, client=client, body=ReplayRequest(players=3, seed=2026, actions=history)
)
assert replayed.step.over and replayed.step.result.ranking == ranking
print(f"python client: game over after {moves} moves, ranking {ranking}")
