// Renders events and actions of real games as the pages do: the pages' own faces.js and table.js
// (copied by tests/e2e/web.rs into a folder marked as ES modules), their `words` with each
// family's table layout. Reads the fixtures' JSON file (argv[3]) and prints one JSON list:
// {game, kind, type, me, text, declared, pieces} per rendering, `pieces` the text of every piece
// the item names, as sentences write them.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [assets, fixtures] = process.argv.slice(2);
const faces = await import(pathToFileURL(join(assets, 'faces.js')).href);
const table = await import(pathToFileURL(join(assets, 'table.js')).href);

const NAMES = ['Anna', 'Bruno', 'Clara', 'Dario', 'Elena', 'Felix', 'Greta', 'Hugo'];
const names = seat => NAMES[seat] || `Player ${seat + 1}`;
const out = [];
for (const game of JSON.parse(readFileSync(fixtures, 'utf8'))) {
  faces.usePieceNames(game.table);
  for (const [kind, items] of [['event', game.events], ['action', game.actions]]) {
    const declared = new Set((kind === 'event' ? game.table.events : game.table.actions).map(s => s.type));
    for (const item of items) {
      const value = item.value;
      const pieces = table.piecesIn(value).map(faces.pieceText);
      // As a spectator reads it, and as the seat it names reads it ("you").
      for (const me of [null, item.me]) {
        const sides = table.sidesOf(game.table, item.view, item.players);
        const w = table.words({ layout: game.table, players: item.players, me, names, sides });
        const text = kind === 'event' ? w.eventText(value, null) : w.actionText(value);
        out.push({ game: game.id, kind, type: value.type, me, text, declared: declared.has(value.type), pieces, value });
      }
    }
  }
}
process.stdout.write(JSON.stringify(out));
