//! Every family's table layout (engine::table, served as `table` in the catalog) names what the
//! family really writes: each path it declares starts at a field of the family's View (the hand,
//! hand sizes and scores hold values in seeded games), and each sentence names an event or action
//! type of the family's schemas and only fields that type has.

use engine::{NewGame, Viewer};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The views every seat and the spectator see over a few seeded games of `game`, played with
/// its first legal actions and then with its last ones (so both sides of early choices show).
fn views(game: &dyn engine::Game) -> Vec<Value> {
    let mut out = Vec::new();
    let players = game.info().players.min.max(2).min(game.info().players.max);
    for seed in 0..3u64 {
        let request = NewGame {
            players,
            options: Map::new(),
            seed,
            deals: Vec::new(),
        };
        let Ok(mut play) = game.start(&request) else {
            continue;
        };
        let mut moves = 0;
        while !play.is_over() && moves < 400 {
            out.push(play.view(Viewer::Spectator));
            for seat in 0..players {
                out.push(play.view(Viewer::Seat(seat)));
            }
            let seat = play.to_act()[0];
            let legal = play.legal_actions(seat);
            let pick = if seed % 2 == 0 { 0 } else { legal.len() - 1 };
            play.apply(seat, &legal[pick])
                .expect("a listed action applies");
            moves += 1;
        }
        out.push(play.view(Viewer::Seat(0)));
    }
    out
}

/// The JSON Pointers a layout declares, with what each is.
fn paths(table: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut add = |what: &str, value: &Value| {
        if let Some(path) = value.as_str() {
            out.push((what.to_string(), path.to_string()));
        }
    };
    for key in ["hand", "hand_sizes", "to_act", "dealer"] {
        add(key, &table[key]);
    }
    add("trick", &table["trick"]["path"]);
    add("finished tricks", &table["trick"]["finished"]);
    for group in ["centre", "seat_piles", "badges", "seat_badges"] {
        for item in table[group].as_array().into_iter().flatten() {
            add(&format!("{group} {}", item["label"]), &item["path"]);
        }
    }
    add(
        "trump suit of the hand order",
        &table["hand_order"]["trump_suit"],
    );
    add(
        "trump rank of the hand order",
        &table["hand_order"]["trump_rank"],
    );
    add("scores", &table["scores"]["path"]);
    add("sides", &table["scores"]["sides"]);
    add("target", &table["scores"]["target"]["path"]);
    out
}

/// The fields a sentence template reads (`{field}`, `{field:kind}`, `{field?yes|no}`), first
/// segment of a path.
fn fields(template: &str) -> BTreeSet<String> {
    template
        .split('{')
        .skip(1)
        .filter_map(|part| part.split('}').next())
        .map(|spec| {
            spec.split(['?', ':', '/'])
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .filter(|field| field != "actor")
        .collect()
}

/// The property names of an object schema, through `$ref`s and `allOf` (a variant that wraps a
/// struct, such as Marglia's `answer`).
fn properties(schema: &Value, defs: &Map<String, Value>) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(target) = schema["$ref"].as_str() {
        let name = target.trim_start_matches(engine::schema::DEFS);
        if let Some(def) = defs.get(name) {
            out.extend(properties(def, defs));
        }
    }
    for part in schema["allOf"].as_array().into_iter().flatten() {
        out.extend(properties(part, defs));
    }
    out
}

#[test]
fn every_layout_path_and_sentence_names_what_its_family_writes() {
    // Families may share one layout (Marglia and Maniglia): a path holds a value in a view of
    // some id of the families that declare it.
    let mut layouts: BTreeMap<String, (Vec<String>, Vec<Value>, Value)> = BTreeMap::new();
    for game in engine::registry::games() {
        let info = game.info();
        let table = serde_json::to_value(&info.table).expect("a layout serializes");
        let key = table.to_string();
        let entry = layouts
            .entry(key)
            .or_insert_with(|| (Vec::new(), Vec::new(), game.schemas()));
        entry.0.push(info.id.clone());
        entry.1.extend(views(game.as_ref()));
    }
    assert_eq!(layouts.len(), 10, "every family declares its table");
    for (table, (ids, seen, schemas)) in &layouts {
        let table: Value = serde_json::from_str(table).expect("json");
        let family = ids[0].as_str();
        let defs = schemas["$defs"].as_object().expect("$defs");
        let view_schema = defs
            .iter()
            .find(|(name, _)| name.ends_with(".View"))
            .map(|(_, schema)| schema)
            .expect("a View schema");
        let view_fields = properties(view_schema, defs);
        for (what, path) in paths(&table) {
            let field = path
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or_default();
            assert!(
                view_fields.contains(field),
                "{family}: the layout's {what} `{path}` is not a field of the view"
            );
            // What every table shows holds a value in the views of seeded games.
            if ["hand", "hand_sizes", "scores"].contains(&what.as_str()) {
                let found = seen
                    .iter()
                    .any(|view| view.pointer(&path).is_some_and(|v| !v.is_null()));
                assert!(
                    found,
                    "{family}: the layout's {what} `{path}` holds nothing in any view of {ids:?}"
                );
            }
        }
        let union_of = |union: &str, kind: &str| {
            defs.keys()
                .find(|name| name.ends_with(&format!(".{union}.{kind}")))
                .and_then(|name| defs.get(name))
        };
        for (list, union) in [("events", "Event"), ("actions", "Action")] {
            for sentence in table[list].as_array().into_iter().flatten() {
                let kind = sentence["type"].as_str().expect("type");
                let schema = union_of(union, kind)
                    .unwrap_or_else(|| panic!("{family}: no {union} type `{kind}`"));
                let properties = properties(schema, defs);
                for field in fields(sentence["text"].as_str().expect("text")) {
                    assert!(
                        properties.contains(&field),
                        "{family} {union} `{kind}`: the sentence reads `{field}`, which it does not have"
                    );
                }
            }
        }
        // The trick events name event types of the family with the fields they read.
        if let Some(events) = table["trick"]["events"].as_object() {
            for (kind, fields) in [("play", &["seat", "pieces"][..]), ("won", &["winner"][..])] {
                let name = events[kind].as_str().expect("an event type");
                let schema = union_of("Event", name)
                    .unwrap_or_else(|| panic!("{family}: trick events name no event `{name}`"));
                let properties = properties(schema, defs);
                for field in fields {
                    let pointer = events[*field].as_str().expect("a pointer");
                    assert!(
                        properties.contains(pointer.trim_start_matches('/')),
                        "{family}: the trick's `{name}` event has no `{pointer}`"
                    );
                }
            }
        }
        // Every card a hand holds has its place in the hand order.
        if let Some(order) = table["hand_order"].as_object() {
            let listed = |key: &str| -> Vec<String> {
                order[key]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            };
            let (suits, ranks, first) = (listed("suits"), listed("ranks"), listed("first"));
            let hand = table["hand"].as_str().expect("hand");
            for view in seen {
                for card in view
                    .pointer(hand)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let code = card.as_str().expect("a card code");
                    let (rank, suit) = code.split_at(1);
                    assert!(
                        first.iter().any(|c| c == code)
                            || (ranks.iter().any(|r| r == rank) && suits.iter().any(|s| s == suit)),
                        "{family}: {code} has no place in the hand order"
                    );
                }
            }
        }
        for kind in table["deal_end"].as_array().into_iter().flatten() {
            let kind = kind.as_str().unwrap_or_default();
            assert!(
                union_of("Event", kind).is_some(),
                "{family}: deal_end names no event `{kind}`"
            );
        }
    }
    assert_eq!(
        fields("{seat} takes {cards:pieces}{bonus?, |}{score/total:scores}"),
        BTreeSet::from(["seat", "cards", "bonus", "score"].map(String::from))
    );
}
