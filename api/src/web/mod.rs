//! The web pages served by `cardroom serve`: home (the catalog), rules, leaderboards, bots,
//! matches with a replay viewer, and a table to play at. Everything is embedded in the binary
//! (HTML shells made here, one stylesheet and plain JavaScript modules under `assets/`), so the
//! pages work with no network. The pages read the same JSON endpoints as any client; the rules
//! pages are `docs/rules/<family>.md` rendered with pulldown-cmark.

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use actix_web::{HttpResponse, web};
use pulldown_cmark::{Options, Parser, html};

/// The rules texts, `docs/rules/<family>.md`, embedded at build time (also in debug builds): adding
/// a family's doc adds its page, and a test checks that every family of the registry has one.
#[derive(rust_embed::RustEmbed)]
#[folder = "../docs/rules/"]
#[include = "*.md"]
struct RulesDocs;

/// The stylesheet and the JavaScript modules of the pages.
#[derive(rust_embed::RustEmbed)]
#[folder = "src/web/assets/"]
struct Assets;

/// Families described in another family's rules text.
const RULES_SHARED: &[(&str, &str)] = &[("maniglia", "marglia")];

/// The rules text of a family.
pub fn rules_text(family: &str) -> Option<String> {
    let name = RULES_SHARED
        .iter()
        .find(|(alias, _)| *alias == family)
        .map_or(family, |(_, doc)| *doc);
    // Only plain names: the folder holds nothing else, and `..` never reaches the embedder.
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let file = RulesDocs::get(&format!("{name}.md"))?;
    String::from_utf8(file.data.into_owned()).ok()
}

/// Every embedded rules text, by file name.
pub fn rules_files() -> Vec<(String, String)> {
    RulesDocs::iter()
        .filter_map(|name| {
            let text = String::from_utf8(RulesDocs::get(&name)?.data.into_owned()).ok()?;
            Some((name.to_string(), text))
        })
        .collect()
}

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The pages and assets, each path with its `GET` handler: plain actix routes, not part of the
/// JSON API's OpenAPI document (the edge's route table reads the paths from here).
fn pages() -> [(&'static str, actix_web::Route); 16] {
    [
        ("/", web::get().to(home)),
        ("/ui", web::get().to(to_home)),
        ("/arena", web::get().to(to_matches)),
        ("/rules", web::get().to(to_home)),
        ("/rules/{family}", web::get().to(rules)),
        ("/leaderboard", web::get().to(leaderboards)),
        ("/leaderboard/{game}", web::get().to(leaderboard)),
        ("/bot/{id}", web::get().to(bot)),
        ("/player/{id}", web::get().to(player)),
        ("/matches", web::get().to(matches)),
        ("/match/{id}", web::get().to(match_page)),
        ("/play", web::get().to(play_index)),
        ("/play/{game}", web::get().to(play)),
        ("/table/{id}", web::get().to(table)),
        ("/assets/{file}", web::get().to(asset)),
        ("/favicon.ico", web::get().to(favicon)),
    ]
}

/// The paths of the pages and assets.
pub fn page_paths() -> Vec<&'static str> {
    pages().into_iter().map(|(path, _)| path).collect()
}

/// Mounts the pages and assets.
pub fn configure(cfg: &mut web::ServiceConfig) {
    for (path, route) in pages() {
        cfg.route(path, route);
    }
}

fn redirect(to: &'static str) -> HttpResponse {
    HttpResponse::Found().insert_header((LOCATION, to)).finish()
}

async fn to_home() -> HttpResponse {
    redirect("/")
}

async fn to_matches() -> HttpResponse {
    redirect("/matches")
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One page: the shared shell around `body`. `page` and `arg` tell `app.js` what to load.
fn page(title: &str, page: &str, arg: &str, body: &str) -> HttpResponse {
    let html = format!(
        r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · cardroom</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{style}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<nav aria-label="Main">
<a class="brand" href="/">cardroom</a>
<a href="/matches">Matches</a>
<a href="/leaderboard">Leaderboards</a>
<a href="/play">Play</a>
<a href="/docs/">API</a>
</nav>
</header>
<main id="main" tabindex="-1" data-page="{page}" data-arg="{arg}">
{body}
</main>
<script type="module" src="{app}"></script>
</body>
</html>
"##,
        title = escape(title),
        page = escape(page),
        arg = escape(arg),
        style = asset_url("style.css"),
        app = asset_url("app.js"),
    );
    HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((CACHE_CONTROL, "no-cache"))
        .body(html)
}

fn not_found_page(what: &str) -> HttpResponse {
    let mut response = page(
        "Not found",
        "none",
        "",
        &format!(
            "<h1>Not found</h1><p>{}</p><p><a href=\"/\">Back to the games</a></p>",
            escape(what)
        ),
    );
    *response.status_mut() = actix_web::http::StatusCode::NOT_FOUND;
    response
}

async fn home() -> HttpResponse {
    page(
        "Games",
        "home",
        "",
        "<h1>Games</h1><p>Every game cardroom serves, by family: read the rules, see the \
         leaderboard, or take a seat against the built-in bots.</p><div id=\"catalog\" \
         aria-live=\"polite\">Loading the catalog…</div>",
    )
}

/// The rules of a family as HTML, if the family has a rules text.
pub fn rules_html(family: &str) -> Option<String> {
    let text = rules_text(family)?;
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    options.insert(Options::ENABLE_HEADING_ATTRIBUTES);
    let parser = Parser::new_ext(&text, options).map(|event| match event {
        // Links between rules texts point at the rendered page.
        pulldown_cmark::Event::Start(pulldown_cmark::Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => pulldown_cmark::Event::Start(pulldown_cmark::Tag::Link {
            link_type,
            dest_url: rules_link(&dest_url).into(),
            title,
            id,
        }),
        // Raw HTML in a doc is shown as text, never interpreted.
        pulldown_cmark::Event::Html(raw) | pulldown_cmark::Event::InlineHtml(raw) => {
            pulldown_cmark::Event::Text(raw)
        }
        other => other,
    });
    let mut out = String::new();
    html::push_html(&mut out, parser);
    Some(out)
}

fn rules_link(dest: &str) -> String {
    match dest.strip_suffix(".md") {
        Some(name) if !name.contains('/') || name.starts_with("./") => {
            format!("/rules/{}", name.trim_start_matches("./"))
        }
        _ => dest.to_string(),
    }
}

async fn rules(family: web::Path<String>) -> HttpResponse {
    match rules_html(&family) {
        Some(body) => page(
            &format!("Rules: {family}"),
            "rules",
            &family,
            &format!("<article class=\"rules\">{body}</article>"),
        ),
        None => not_found_page(&format!("There are no rules for `{family}`.")),
    }
}

fn known_game(game: &str) -> bool {
    engine::registry::find(game).is_some()
}

async fn leaderboards() -> HttpResponse {
    page(
        "Leaderboards",
        "leaderboards",
        "",
        "<h1>Leaderboards</h1><div id=\"boards\">Loading…</div>",
    )
}

async fn leaderboard(game: web::Path<String>) -> HttpResponse {
    if !known_game(&game) {
        return not_found_page(&format!("There is no game `{game}`."));
    }
    page(
        &format!("Leaderboard: {game}"),
        "leaderboard",
        &game,
        &format!(
            "<h1>Leaderboard: {}</h1><p class=\"muted\">Ranked by the conservative rating \
             mu − 3 sigma; refreshes every 10 seconds. Wins, draws, losses and faults count \
             the game's latest 500 ranked matches.</p><div id=\"board\" aria-live=\"polite\">Loading…</div>",
            escape(&game)
        ),
    )
}

/// A player's page: name, ratings, recent tables.
async fn player(id: web::Path<String>) -> HttpResponse {
    page(
        &format!("Player {id}"),
        "player",
        &id,
        "<h1 id=\"player-title\">Player</h1><div id=\"player\">Loading…</div>",
    )
}

async fn bot(id: web::Path<String>) -> HttpResponse {
    page(
        "Bot",
        "bot",
        &id,
        "<h1 id=\"bot-title\">Bot</h1><div id=\"bot\">Loading…</div>",
    )
}

async fn matches() -> HttpResponse {
    page(
        "Matches",
        "matches",
        "",
        "<h1>Matches</h1><form id=\"filters\" class=\"filters\"></form><div id=\"list\" aria-live=\"polite\">Loading…</div>",
    )
}

async fn match_page(id: web::Path<String>) -> HttpResponse {
    page(
        &format!("Match {id}"),
        "match",
        &id,
        &format!(
            "<h1>Match <code>{}</code></h1><div id=\"match\">Loading…</div>",
            escape(&id)
        ),
    )
}

async fn play_index() -> HttpResponse {
    page(
        "Play",
        "play-index",
        "",
        "<h1>Play</h1><p>Choose a game; you take a seat against the built-in bots.</p><div id=\"games\">Loading…</div>",
    )
}

async fn play(game: web::Path<String>) -> HttpResponse {
    if !known_game(&game) {
        return not_found_page(&format!("There is no game `{game}`."));
    }
    page(
        &format!("Play {game}"),
        "play",
        &game,
        &format!(
            "<h1>Play <code>{}</code></h1><div id=\"play\">Loading…</div>",
            escape(&game)
        ),
    )
}

/// A shared table: a person's seat (its key is in the link's fragment, read by the page) or,
/// without one, the seats to take and the match to watch.
async fn table(id: web::Path<String>) -> HttpResponse {
    page(
        &format!("Table {id}"),
        "table",
        &id,
        "<h1 id=\"table-title\">Table</h1><div id=\"play\">Loading…</div>",
    )
}

/// An asset's bytes and the hash that names this version of it.
struct Asset {
    bytes: web::Bytes,
    etag: String,
}

/// Every asset, read and hashed once.
fn assets() -> &'static std::collections::HashMap<String, Asset> {
    static ASSETS: std::sync::OnceLock<std::collections::HashMap<String, Asset>> =
        std::sync::OnceLock::new();
    ASSETS.get_or_init(|| {
        Assets::iter()
            .filter_map(|name| {
                let bytes = web::Bytes::from(Assets::get(&name)?.data.into_owned());
                let etag = arena::http::etag(&bytes);
                Some((name.to_string(), Asset { bytes, etag }))
            })
            .collect()
    })
}

/// An asset's URL named by its content's hash (`/assets/app.js?v=<hash>`): cached for a year,
/// since the next version has another URL.
pub fn asset_url(file: &str) -> String {
    match assets().get(file) {
        Some(asset) => format!("/assets/{file}?v={}", version(&asset.etag)),
        None => format!("/assets/{file}"),
    }
}

/// The version of an asset in its URL: its `ETag` without quotes.
fn version(etag: &str) -> &str {
    etag.trim_matches('"')
}

/// An asset: with its current hash in `v`, immutable; otherwise (the modules' own imports)
/// revalidated with its `ETag` (304 while unchanged).
async fn asset(file: web::Path<String>, request: actix_web::HttpRequest) -> HttpResponse {
    let Some(asset) = assets().get(file.as_str()) else {
        return HttpResponse::NotFound()
            .insert_header((CONTENT_TYPE, "text/plain; charset=utf-8"))
            .body("no such asset");
    };
    let named =
        web::Query::<std::collections::HashMap<String, String>>::from_query(request.query_string())
            .ok()
            .and_then(|query| query.get("v").cloned())
            .is_some_and(|v| v == version(&asset.etag));
    let freshness = if named {
        arena::http::Freshness::Immutable
    } else {
        arena::http::Freshness::Revalidate
    };
    arena::http::validated(
        content_type(&file),
        asset.bytes.clone(),
        &asset.etag,
        freshness,
    )
}

async fn favicon() -> HttpResponse {
    HttpResponse::NoContent().finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_has_a_rules_page() {
        for game in engine::registry::games() {
            let family = &game.info().family;
            let html = rules_html(family).unwrap_or_default();
            assert!(
                html.contains("<h1"),
                "docs/rules/{family}.md is missing or has no title"
            );
        }
    }

    #[test]
    fn rules_texts_link_nowhere_outside_the_repository() {
        let files = rules_files();
        assert!(files.len() >= 10, "docs/rules/ is embedded");
        for (file, text) in files {
            for word in ["../", "shared/rules", "http://", "https://"] {
                assert!(
                    !text.contains(word),
                    "docs/rules/{file} refers outside the repository: `{word}`"
                );
            }
        }
    }

    #[test]
    fn every_asset_is_served_with_its_type() {
        for name in Assets::iter() {
            assert_ne!(content_type(&name), "application/octet-stream", "{name}");
        }
        assert!(Assets::get("app.js").is_some());
        assert!(rules_text("../Cargo").is_none());
    }

    #[test]
    fn escape_neutralises_markup() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
