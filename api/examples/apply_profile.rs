//! Bench-only: times the stages of one `apply` on a mid-game state, in process.
//! `cargo run --release -p api --example apply_profile -- BODY_FILE`

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("a body file");
    let text = std::fs::read_to_string(path).expect("body");
    let game = engine::registry::find("twenty_two").expect("twenty_two");
    let codec = api::codec::StateCodec::transparent();
    let n = 20_000;
    let t = Instant::now();
    for _ in 0..n {
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        std::hint::black_box(v);
    }
    println!(
        "parse body      {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(game.load(&body["state"]).unwrap());
    }
    println!(
        "load            {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    // What the handler does: the request with its state as raw JSON text, decoded once into
    // the typed state (no `Value` tree of the state).
    let t = Instant::now();
    for _ in 0..n {
        let request: api::dto::ApplyRequest = serde_json::from_str(&text).unwrap();
        std::hint::black_box(codec.decode_raw(game, &request.state).unwrap());
    }
    println!(
        "parse+load raw  {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let m = game.load(&body["state"]).unwrap();
    let seat = body["seat"].as_u64().unwrap() as usize;
    let t = Instant::now();
    for _ in 0..n {
        let mut m2 = m.clone_match();
        std::hint::black_box(m2.apply(seat, &body["action"]).unwrap());
    }
    println!(
        "clone+apply     {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let mut after = m.clone_match();
    let events = after.apply(seat, &body["action"]).unwrap().events;
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(after.save());
    }
    println!(
        "save            {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        for s in after.to_act() {
            std::hint::black_box(after.legal_actions(s));
        }
    }
    println!(
        "legal           {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(after.result());
        std::hint::black_box(after.is_over());
    }
    println!(
        "result+over     {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        let step = api::step::make_step(&codec, after.as_ref(), events.clone()).unwrap();
        std::hint::black_box(serde_json::to_vec(&step).unwrap());
    }
    println!(
        "step+serialize  {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        let r = api::routes::games::step_response(&codec, after.as_ref(), events.clone()).unwrap();
        std::hint::black_box(r);
    }
    println!(
        "step_response   {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let sealed = api::codec::StateCodec::sealed(&api::codec::SealKey::from_bytes([9; 32]), false);
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(sealed.encode_json(after.as_ref()).unwrap());
    }
    println!(
        "seal (encode)   {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let token: serde_json::Value =
        serde_json::from_str(&sealed.encode_json(after.as_ref()).unwrap()).unwrap();
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(sealed.unseal(token.as_str().unwrap()).unwrap());
    }
    println!(
        "unseal          {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(sealed.decode(game, &token).unwrap());
    }
    println!(
        "sealed decode   {:>8.2} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let step = api::step::make_step(&codec, after.as_ref(), events.clone()).unwrap();
    println!(
        "response bytes  {}",
        serde_json::to_vec(&step).unwrap().len()
    );
}
