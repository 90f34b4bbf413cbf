// Plays a whole game against a running cardroom server with fetch (Node 20+, or a browser).
//   cargo run --release -- serve &
//   node examples/javascript/play.mjs [BASE_URL] [GAME] [PLAYERS]
// Seeds and states go back to the server untouched; seeds the server picks are below 2^53, so
// JSON.parse keeps them exact.
const [base = "http://127.0.0.1:8080", game = "twenty_two", players = "3"] = process.argv.slice(2);

async function call(op, body) {
  const response = await fetch(`${base}/v1/games/${game}/${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${json.code}: ${json.detail}`);
  return json;
}

let step = await call("new", { players: Number(players), seed: 42 });
let moves = 0;
while (!step.over) {
  const { seat, actions } = step.legal_actions[0];
  const action = actions[Math.floor(Math.random() * actions.length)];
  step = await call("apply", { state: step.state, seat, action });
  moves += 1;
}
console.log(`game over after ${moves} moves`);
console.log("ranking (best first):", JSON.stringify(step.result.ranking), "scores:", JSON.stringify(step.result.scores));
