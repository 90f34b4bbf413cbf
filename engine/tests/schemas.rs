//! The generated JSON Schemas of every family (engine::schema).

#[test]
fn dump() {
    for game in engine::registry::games() {
        let s = game.schemas();
        std::fs::write(format!("/tmp/schemas/{}.json", game.info().id), serde_json::to_string_pretty(&s).unwrap()).unwrap();
    }
}
