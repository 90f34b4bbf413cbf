//! The generated JSON Schemas (engine::schema) describe what the engine really writes: every
//! action and event type met in seeded playouts of every game id is a named variant of its
//! family's union with exactly the keys the variant lists, and views carry exactly the View's
//! properties.

use engine::Viewer;
use serde_json::{Map, Value};

fn definition<'a>(defs: &'a Map<String, Value>, name: &str) -> &'a Map<String, Value> {
    defs.get(name)
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("no schema {name}"))
}

/// Checks an object against an object schema's property names and required list.
fn check_keys(schema: &Map<String, Value>, value: &Value, what: &str) {
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("{what} is not an object: {value}"));
    let properties = schema["properties"].as_object().expect("properties");
    for key in object.keys() {
        assert!(
            properties.contains_key(key),
            "{what}: `{key}` is not in the schema ({value})"
        );
    }
    for key in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = key.as_str().unwrap_or_default();
        assert!(
            object.contains_key(key),
            "{what}: required `{key}` is missing ({value})"
        );
    }
}

fn check_variant(defs: &Map<String, Value>, union: &str, value: &Value) {
    let tag = value["type"]
        .as_str()
        .unwrap_or_else(|| panic!("{union} without type: {value}"));
    let name = format!("{union}.{tag}");
    let listed = definition(defs, union)["oneOf"]
        .as_array()
        .expect("oneOf")
        .iter()
        .any(|v| v["$ref"] == format!("{}{name}", engine::schema::DEFS));
    assert!(listed, "{name} is not a variant of {union}");
    check_keys(definition(defs, &name), value, &name);
}

#[test]
fn every_action_event_and_view_of_seeded_games_matches_its_family_schema() {
    for game in engine::registry::games() {
        let info = game.info();
        let schemas = game.schemas();
        let defs = schemas["$defs"].as_object().expect("$defs");
        let family = &info.family;
        let view_schema = definition(defs, &format!("{family}.View"));
        let players = info.players.min;
        for seed in 0..3u64 {
            let setup = engine::NewGame {
                players,
                seed,
                ..engine::NewGame::default()
            };
            let mut game_match = game.start(&setup).expect("starts");
            for step in 0..3000usize {
                for viewer in [Viewer::Seat(step % players), Viewer::Spectator] {
                    check_keys(
                        view_schema,
                        &game_match.view(viewer),
                        &format!("{family}.View"),
                    );
                }
                let Some(&seat) = game_match.to_act().first() else {
                    break;
                };
                let legal = game_match.legal_actions(seat);
                for action in &legal {
                    check_variant(defs, &format!("{family}.Action"), action);
                }
                let action = &legal[(step * 7 + seed as usize) % legal.len()];
                let applied = game_match
                    .apply(seat, action)
                    .expect("a legal action applies");
                for event in &applied.events {
                    check_variant(defs, &format!("{family}.Event"), event);
                }
            }
        }
    }
}

#[test]
fn piece_codes_have_their_pattern_and_closed_sets_are_enums() {
    let schemas = engine::registry::find("watten").expect("watten").schemas();
    let defs = schemas["$defs"].as_object().expect("$defs");
    assert_eq!(defs["Card"]["pattern"], engine::cards::CARD_CODE_PATTERN);
    assert_eq!(
        defs["Suit"]["enum"],
        serde_json::json!(["S", "H", "D", "C"])
    );
    assert_eq!(
        defs["watten.RaiseTiming"]["enum"],
        serde_json::json!(["any_time", "on_turn"])
    );
    // Watten's target (spec §7): exactly 11, 15 or 18, in the options and in requests.
    for options in ["watten.Options", "watten.NewOptions"] {
        assert_eq!(
            defs[options]["properties"]["target"]["enum"],
            serde_json::json!([11, 15, 18]),
            "{options}"
        );
    }
    let tiles = engine::registry::find("tjak_mat_tchi_ki")
        .expect("tiles")
        .schemas();
    assert_eq!(
        tiles["$defs"]["Tile"]["pattern"],
        engine::tiles::TILE_CODE_PATTERN
    );
}
