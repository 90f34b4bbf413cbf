"""Plays a full game through a client generated from one game id's own OpenAPI document
(openapi/games/<id>.json), with typed models only, after checking that no action, event or view
field of the generated models is typed `Any` or `dict`.

Run by the e2e test `generated_python_clients_play_watten_and_basra_with_typed_models_only`:
    PYTHONPATH=<generated client dir> python play_typed.py GAME PACKAGE BASE_URL
"""
import importlib
import inspect
import re
import sys

import attrs

game, package, base = sys.argv[1:4]
family = game  # the base id of its family: schemas are named after it (`watten.Action`)
prefix = "".join(part.capitalize() for part in family.split("_"))

client_module = importlib.import_module(package)
models = importlib.import_module(f"{package}.models")
api = lambda op: importlib.import_module(f"{package}.api.{game}.{op}")

# 1. No free-form field: every field of the family's models and every game slot of the wire types
#    has a real type (a model, an enum, a literal, a scalar, or lists/unions of those).
loose = re.compile(r"\b(Any|dict|Dict)\b")
family_models = {
    name: cls
    for name, cls in inspect.getmembers(models, inspect.isclass)
    if name.startswith(prefix) and attrs.has(cls)
}
assert any(name == f"{prefix}Action" or name.startswith(f"{prefix}Action") for name in family_models), sorted(
    family_models
)
checked = 0
game_slots = {
    "Step": ["events", "legal_actions"],
    "SeatActions": ["actions"],
    "ViewResponse": ["view"],
    "ReplayResponse": ["log"],
    "ApplyRequest": ["action"],
    "SeatAction": ["action"],
    "NewGameRequest": ["options"],
    "ReplayRequest": ["options"],
}
to_check = [(name, cls, None) for name, cls in family_models.items()] + [
    (name, getattr(models, name), fields) for name, fields in game_slots.items()
]
for name, cls, only in to_check:
    for field in attrs.fields(cls):
        if field.name == "additional_properties" or (only is not None and field.name not in only):
            continue
        annotation = field.type if isinstance(field.type, str) else repr(field.type)
        assert not loose.search(annotation), f"{name}.{field.name} is generated as `{annotation}`"
        checked += 1
assert checked > 20, checked

Client = client_module.Client
client = Client(base_url=base, raise_on_unexpected_status=True)


def typed(value, what):
    """A value of one of the family's generated models (not a dict, not Any)."""
    assert type(value).__name__ in family_models, f"{what} is a {type(value).__name__}: {value!r}"
    return value


entry = api("describe_game").sync(client=client)
assert entry.id == game and entry.openapi == f"/v1/games/{game}/openapi.json", entry
players = max(2, entry.players.min_)
seed = 2026
step = api("new_game").sync(client=client, body=models.NewGameRequest(players=players, seed=seed))
assert isinstance(step, models.Step) and not step.over, step
for event in step.events:
    typed(event, "a setup event")

view = api("view_game").sync(client=client, body=models.ViewRequest(state=step.state, seat=0)).view
typed(view, "a seat's view")
spectator = api("view_game").sync(client=client, body=models.ViewRequest(state=step.state)).view
typed(spectator, "the spectator's view")
assert view.seat == 0 and spectator.seat is None, (view.seat, spectator.seat)

history = []
event_types = set()
moves = 0
while not step.over:
    seat_actions = step.legal_actions[moves % len(step.legal_actions)]
    action = typed(seat_actions.actions[(moves * 5 + 2) % len(seat_actions.actions)], "an action")
    step = api("apply_action").sync(
        client=client,
        body=models.ApplyRequest(state=step.state, seat=seat_actions.seat, action=action),
    )
    assert isinstance(step, models.Step), step
    for event in step.events:
        event_types.add(typed(event, "an event").type_)
    history.append(models.SeatAction(seat=seat_actions.seat, action=action))
    moves += 1
    assert moves < 5000, "the game does not end"

ranking = step.result.ranking
assert sorted(s for group in ranking for s in group) == list(range(players)), ranking
final = api("view_game").sync(client=client, body=models.ViewRequest(state=step.state, seat=1)).view
typed(final, "the final view")

replayed = api("replay_game").sync(
    client=client, body=models.ReplayRequest(players=players, seed=seed, actions=history)
)
assert replayed.step.over and replayed.step.result.ranking == ranking
for event in replayed.log:
    typed(event, "a logged event")
print(
    f"{game}: typed python client played {moves} moves, {len(event_types)} event types, "
    f"ranking {ranking}; {checked} generated fields checked"
)
