//! `openapi/bot-protocol.json` is generated from the wire types and must be up to date.

use std::path::PathBuf;

fn spec_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../openapi/bot-protocol.json")
}

#[test]
fn bot_protocol_spec_is_up_to_date() {
    let generated = arena::wire::bot_protocol_openapi()
        .to_pretty_json()
        .expect("json")
        + "\n";
    let path = spec_path();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        std::fs::write(&path, &generated).expect("write");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/bot-protocol.json is out of date: run `UPDATE_OPENAPI=1 cargo test -p arena --test arena protocol`"
    );
}

#[test]
fn the_spec_names_every_endpoint_and_the_signature_headers() {
    let spec = serde_json::to_value(arena::wire::bot_protocol_openapi()).expect("json");
    for path in ["/", "/move", "/start", "/end"] {
        assert!(spec["paths"].get(path).is_some(), "{path}");
    }
    let text = spec.to_string();
    assert!(text.contains("X-Cardroom-Signature") && text.contains("X-Cardroom-Timestamp"));
    for schema in [
        "MoveRequest",
        "MoveResponse",
        "BotInfo",
        "StartNotice",
        "EndNotice",
    ] {
        assert!(
            spec["components"]["schemas"].get(schema).is_some(),
            "{schema}"
        );
    }
}
