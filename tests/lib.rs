//! End-to-end tests of cardroom live in `e2e/` (one integration binary, `cargo test -p e2e`).
//!
//! This library holds the test helpers other crates' test suites share (the arena's tests
//! dev-depend on it); it depends on no crate of the workspace, so no dependency cycle forms.

/// Says that the running test is skipped because `missing` (one `SKIPPED: <test>: <missing>`
/// line, straight to stderr past the harness's capture: shown even when the test passes), or,
/// when `CARDROOM_REQUIRE_TOOLS` is set (`.ci/run` sets it, having installed every tool), fails
/// it: CI never skips a test silently.
pub fn skip(missing: &str) {
    use std::io::Write as _;
    let current = std::thread::current();
    let test = current.name().unwrap_or("a test");
    if std::env::var_os("CARDROOM_REQUIRE_TOOLS").is_some() {
        panic!("{test}: {missing} (CARDROOM_REQUIRE_TOOLS is set: nothing may be skipped)");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {missing}");
}

/// Whether `program` runs here (`program --version` succeeds); if not, the test is skipped
/// ([`skip`], naming `what` to install) and the caller returns.
pub fn tool_or_skip(program: &str, what: &str) -> bool {
    let ran = std::process::Command::new(program)
        .arg("--version")
        .output();
    if ran.is_ok_and(|output| output.status.success()) {
        return true;
    }
    skip(&format!("needs `{program}` on PATH ({what})"));
    false
}

/// A new, empty PostgreSQL database on the server `DATABASE_URL` names (as `.ci/run` provides),
/// so tests running at once do not claim each other's matches; returns its URL. None when no
/// PostgreSQL server is given: the test is skipped ([`skip`]) and returns.
pub async fn fresh_postgres() -> Option<String> {
    use sqlx::Connection as _;
    let Some(url) = std::env::var("DATABASE_URL")
        .ok()
        .filter(|url| url.starts_with("postgres"))
    else {
        skip(
            "needs PostgreSQL: DATABASE_URL is not a postgres:// URL (.ci/postgres.sh starts one)",
        );
        return None;
    };
    // 48 random bits: unique among the databases of one run.
    let name = format!("cardroom_test_{:012x}", rand::random::<u64>() >> 16);
    let mut admin = sqlx::PgConnection::connect(&url)
        .await
        .expect("connect to DATABASE_URL");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .expect("create a test database");
    let base = url.split('?').next().unwrap_or(&url);
    let server = base
        .rsplit_once('/')
        .map(|(server, _)| server)
        .unwrap_or(base);
    Some(format!("{server}/{name}"))
}

/// The JSON lines of an `application/x-ndjson` response (a stream bot's `GET /v1/bot/stream`),
/// read on a task of their own; empty lines (keep-alives) are skipped, and the channel closes
/// when the server ends the response.
pub fn ndjson_lines(
    mut response: reqwest::Response,
) -> tokio::sync::mpsc::Receiver<serde_json::Value> {
    let (sender, lines) = tokio::sync::mpsc::channel(256);
    tokio::spawn(async move {
        let mut buffer = Vec::new();
        loop {
            // A reader that drops its receiver closes the connection at once (a bot that
            // disconnects), rather than at the next line.
            let chunk = tokio::select! {
                chunk = response.chunk() => chunk,
                () = sender.closed() => return,
            };
            let Ok(Some(chunk)) = chunk else {
                return;
            };
            buffer.extend_from_slice(&chunk);
            while let Some(end) = buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = buffer.drain(..=end).collect();
                if line.len() > 1 {
                    let parsed = serde_json::from_slice(&line).expect("a JSON line");
                    if sender.send(parsed).await.is_err() {
                        return;
                    }
                }
            }
        }
    });
    lines
}
