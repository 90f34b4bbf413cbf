// A short game loop of twenty_two on the types openapi-typescript generates from
// openapi/games/twenty_two.json (imported as ./schema). The e2e test
// `a_generated_typescript_client_type_checks_a_game_loop_and_refuses_a_misspelt_action` checks it
// with `tsc --noEmit`, then checks that a copy with a misspelt action type does not compile.
import type { components } from "./schema";

type Schemas = components["schemas"];
type Action = Schemas["twenty_two.Action"];
type Event = Schemas["twenty_two.Event"];
type Step = Schemas["Step"];
type View = Schemas["twenty_two.View"];
type NewGame = Schemas["NewGameRequest"];
type Apply = Schemas["ApplyRequest"];

const base = "http://127.0.0.1:8080/v1/games/twenty_two";

async function post<T>(op: string, body: unknown): Promise<T> {
  const reply = await fetch(`${base}/${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await reply.json()) as T;
}

/** Prefers a play of the fewest cards, else the first legal action. */
function choose(actions: Action[]): Action {
  const plays = actions.filter((a): a is Schemas["twenty_two.Action.play"] => a.type === "play");
  plays.sort((a, b) => a.cards.length - b.cards.length);
  return plays[0] ?? actions[0];
}

function describe(event: Event): string {
  switch (event.type) {
    case "play":
      return `seat ${event.seat} played ${event.cards.join(" ")}`;
    default:
      return event.type;
  }
}

export async function playOnce(): Promise<number[][] | undefined> {
  const request: NewGame = { players: 3, seed: 7, options: { packs: 1 } };
  let step = await post<Step>("new", request);
  let moves = 0;
  while (!step.over && moves < 500) {
    const turn = step.legal_actions[0];
    const action: Action = choose(turn.actions);
    const apply: Apply = { state: step.state, seat: turn.seat, action };
    step = await post<Step>("apply", apply);
    step.events.map(describe).forEach((line) => console.log(line));
    moves += 1;
  }
  const fold: Action = { type: "fold" };
  const view = await post<{ seat?: number | null; view: View }>("view", { state: step.state, seat: 0 });
  console.log(view.view.players, fold.type);
  return step.result?.ranking;
}
