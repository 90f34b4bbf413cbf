"""The web pages in a real browser: Debian's Chromium driven by Playwright for Python.

Run by tests/e2e/web.rs, which starts the server (with its arena and a slow loopback bot) and
passes a JSON config as argv[1]:
  {"base", "sealed_base", "finished_match", "slow_bots", "screenshots", "bot", "failing_bot"}
Checks: every page loads with no console error; the replay viewer steps through a finished match
(buttons, slider, keys) and the scores it shows equal the API's; a live match page receives events
while the match runs; a person plays a whole game of twenty_two and of basra by clicking; card
faces have text alternatives; text has sufficient contrast (WCAG AA). Writes screenshots.
Fails loudly (non-zero exit, a message naming the check) on the first failure.
"""

import json
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

config = json.loads(sys.argv[1])
BASE = config["base"]


def api(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        BASE + path,
        data=data,
        headers={"content-type": "application/json", "accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def api_at(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as response:
        return json.loads(response.read())


def check(condition, message):
    if not condition:
        raise AssertionError(message)


class Console:
    """Collects console errors and uncaught page errors of one page."""

    def __init__(self, page):
        self.errors = []
        self.allowed = []
        page.on("console", self.on_console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def on_console(self, message):
        if message.type != "error":
            return
        text = message.text
        if any(allowed in text for allowed in self.allowed):
            return
        self.errors.append(f"console error: {text} at {message.location}")

    def assert_clean(self, where):
        check(not self.errors, f"{where}: {self.errors}")


# Contrast: every visible text node's colour against the first opaque background behind it.
CONTRAST_JS = """
() => {
  function parse(c) {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(',').map(x => parseFloat(x));
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  }
  function lum(c) {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  }
  function background(el) {
    for (let n = el; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c.a >= 0.99) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  }
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || seen.has(el)) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || style.display === 'none' || rect.width === 0 || rect.height === 0) continue;
    if (el.closest('.skip')) continue;
    const fg = parse(style.color);
    const bg = background(el);
    const l1 = lum(fg), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    const size = parseFloat(style.fontSize);
    const bold = parseInt(style.fontWeight, 10) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    const need = large ? 3 : 4.5;
    if (ratio < need - 0.01) bad.push(`${el.tagName}.${el.className} "${node.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)} < ${need}`);
  }
  return bad;
}
"""

# Every card or tile face has a text alternative.
FACES_JS = """
() => [...document.querySelectorAll('.card, .tile')]
  .filter(f => !(f.getAttribute('aria-label') || '').trim()).length
"""


def open_page(context, path, ready):
    page = context.new_page()
    console = Console(page)
    page.goto(BASE + path, wait_until="load")
    try:
        page.wait_for_selector(ready, timeout=20000)
    except Exception as error:
        raise AssertionError(f"{path}: `{ready}` did not appear: {error}; console: {console.errors}")
    page.wait_for_load_state("networkidle")
    return page, console


def accessibility(page, where):
    bad = page.evaluate(CONTRAST_JS)
    check(not bad, f"{where}: text below the WCAG AA contrast ratio: {bad[:10]}")
    missing = page.evaluate(FACES_JS)
    check(missing == 0, f"{where}: {missing} card or tile faces without a text alternative")


def every_page_loads(context):
    games = api("/v1/games")
    families = sorted({g["family"] for g in games})
    pages = [
        ("/", "#catalog .family"),
        ("/leaderboard", "#boards li"),
        ("/leaderboard/twenty_two", "#board table, #board p"),
        ("/matches", "#list table"),
        ("/match/" + config["finished_match"], "#result table"),
        ("/bot/" + config["bot"], "#latency"),
        ("/play", "#games li"),
        ("/play/twenty_two", "#setup"),
        ("/play/basra", "#setup"),
        ("/play/watten", "#setup"),
        ("/docs/", "body"),
    ] + [("/rules/" + f, "article.rules h1") for f in families]
    for path, ready in pages:
        page, console = open_page(context, path, ready)
        console.assert_clean(path)
        if not path.startswith("/docs"):
            accessibility(page, path)
        page.close()
    # The catalog links every family's rules, every game's leaderboard and play page.
    page, console = open_page(context, "/", "#catalog .family")
    for game in games:
        check(page.locator(f'a[href="/play/{game["id"]}"]').count() == 1, f"home: no play link for {game['id']}")
        check(page.locator(f'a[href="/leaderboard/{game["id"]}"]').count() == 1, f"home: no leaderboard link for {game['id']}")
    for family in families:
        check(page.locator(f'a[href="/rules/{family}"]').count() == 1, f"home: no rules link for {family}")
    page.close()
    print(f"ok: {len(pages)} pages load with no console error")


def leaderboard(context):
    page, console = open_page(context, "/leaderboard/twenty_two", "#leaderboard-table tbody tr")
    rows = page.locator("#leaderboard-table tbody tr").count()
    board = api("/v1/leaderboards/twenty_two")
    check(rows == len(board["entries"]), f"leaderboard: {rows} rows, the API has {len(board['entries'])}")
    page.screenshot(path=config["screenshots"] + "/leaderboard.png", full_page=True)
    console.assert_clean("leaderboard")
    page.close()
    print("ok: leaderboard")


def seat_columns(page, where, names):
    """Every "Bots (by seat)" cell lists one link per seat, named after its bot, in seat order."""
    rows = page.locator("#matches-table tbody tr")
    check(rows.count() > 0, f"{where}: no match listed")
    for row in range(min(rows.count(), 10)):
        match_id = rows.nth(row).get_attribute("data-match")
        bots = api(f"/v1/matches/{match_id}")["seats"]
        cell = rows.nth(row).locator("td.seats")
        links = cell.locator("a[data-seat]")
        shown = [links.nth(i).inner_text() for i in range(links.count())]
        check(shown == [names.get(s["bot"], s["bot"]) for s in bots], f"{where}: seats of {match_id} shown as {shown}")
        seats = [int(links.nth(i).get_attribute("data-seat")) for i in range(links.count())]
        check(seats == list(range(len(bots))), f"{where}: seats {seats}")
        text = cell.inner_text()
        # Nested arrays flattened one level once rendered as ",http://…/bot/b_…".
        check("http" not in text and not text.startswith(","), f"{where}: the seats cell reads {text!r}")


def bot_page(context):
    names = {b["id"]: b["name"] for b in api("/v1/bots")["bots"]}
    # The matches list and the bot page show the seats by name, one link each.
    page, console = open_page(context, "/matches", "#matches-table tbody tr")
    seat_columns(page, "/matches", names)
    console.assert_clean("matches")
    page.close()

    # The rating history: one marker of each series per ranked match, told apart by shape.
    bot = config["bot"]
    page, console = open_page(context, f"/bot/{bot}", "#history-chart svg.chart")
    history = api(f"/v1/bots/{bot}/ratings?game=twenty_two&limit=500")["ratings"]
    check(len(history) >= 4, f"bot page: {len(history)} ratings in the history")
    chart = page.locator("#history-chart svg.chart")
    check(chart.get_attribute("data-points") == str(len(history)), "bot page: one point per ranked match")
    check(page.locator("#history-chart circle.marker.display").count() == len(history) + 1, "bot page: round markers (and the legend's)")
    check(page.locator("#history-chart rect.marker.mu").count() == len(history) + 1, "bot page: square markers (and the legend's)")
    check("rating (μ − 3σ)" in chart.inner_html(), "bot page: the chart's legend")
    check(chart.get_attribute("role") == "img" and page.locator("#chart-title").count() == 1, "bot page: the chart is labelled")
    page.click("#history-chart summary")
    check(page.locator("#history-table tbody tr").count() == len(history), "bot page: the numbers beneath the chart")
    newest = page.locator("#history-table tbody tr").last.locator("td").nth(1).inner_text()
    check(newest == history[0]["match_id"], f"bot page: the newest point is {newest}, the API says {history[0]['match_id']}")
    seat_columns(page, f"/bot/{bot}", names)
    accessibility(page, "bot page")
    console.assert_clean("bot page")
    page.close()

    # Every fault of a failing bot, 20 at a time, with its own error body.
    failing = config["failing_bot"]
    faults = []
    cursor = None
    while True:
        reply = api(f"/v1/bots/{failing}/faults?limit=500" + (f"&cursor={cursor}" if cursor else ""))
        faults += reply["faults"]
        cursor = reply["next_cursor"]
        if cursor is None:
            break
    check(len(faults) > 20, f"bot page: the failing bot has {len(faults)} faults")
    page, console = open_page(context, f"/bot/{failing}", "#faults-table tbody tr")
    rows = page.locator("#faults-table tbody tr")
    check(rows.count() == 20, f"bot page: a first page of 20 faults, not {rows.count()}")
    first = rows.first.inner_text()
    check("HTTP 500" in first and "no strategy for this position" in first and "2xx" in first, f"bot page: a fault reads {first!r}")
    check("No fault" not in page.inner_text("#faults"), "bot page: faults and 'no fault' at once")
    page.click("#older-faults")
    page.wait_for_function(f"() => document.querySelectorAll('#faults-table tbody tr').length === {min(len(faults), 40)}", timeout=10000)
    check(page.locator("#older-faults").is_hidden() == (len(faults) <= 40), "bot page: the older-faults button")
    shown = [rows.nth(i).get_attribute("data-match") + "/" + rows.nth(i).get_attribute("data-move") for i in range(rows.count())]
    listed = [f"{f['match_id']}/{f['move']}" for f in faults[: len(shown)]]
    check(shown == listed, "bot page: the faults in the API's order, each once")
    accessibility(page, "bot page (faults)")
    console.assert_clean("bot page (faults)")
    page.close()
    print(f"ok: bot pages (rating chart of {len(history)} points, {len(faults)} faults paged, seats by name)")


def replay(context):
    match_id = config["finished_match"]
    match = api(f"/v1/matches/{match_id}")
    moves = len(match["moves"])
    page, console = open_page(context, f"/match/{match_id}", "#result table")
    position = page.locator("#position")
    check(position.inner_text().startswith("Start"), f"replay: a finished match opens at the start: {position.inner_text()}")
    page.click("#next")
    check(position.inner_text() == f"Move 1 of {moves}", f"replay: next: {position.inner_text()}")
    page.click("#last")
    check(position.inner_text() == f"Move {moves} of {moves}", f"replay: last: {position.inner_text()}")
    page.click("#prev")
    check(position.inner_text() == f"Move {moves - 1} of {moves}", f"replay: previous: {position.inner_text()}")
    page.click("#first")
    check(position.inner_text().startswith("Start"), f"replay: first: {position.inner_text()}")
    # Keys: focus the page body, then step with the arrows and jump with End/Home.
    page.locator("#viewer-h").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check(position.inner_text() == f"Move 2 of {moves}", f"replay: arrow keys: {position.inner_text()}")
    page.keyboard.press("ArrowLeft")
    check(position.inner_text() == f"Move 1 of {moves}", f"replay: arrow left: {position.inner_text()}")
    page.keyboard.press("End")
    check(position.inner_text() == f"Move {moves} of {moves}", f"replay: End: {position.inner_text()}")
    # The slider.
    page.locator("#slider").fill(str(moves // 2))
    check(position.inner_text() == f"Move {moves // 2} of {moves}", f"replay: slider: {position.inner_text()}")
    # Play, then pause.
    page.click("#first")
    page.click("#play")
    page.wait_for_function("() => !document.getElementById('position').textContent.startsWith('Start')", timeout=5000)
    page.click("#play")
    check(page.get_attribute("#play", "aria-pressed") == "false", "replay: pause")
    # Every step forward shows a position; the scores shown equal the API's.
    page.click("#first")
    for _ in range(moves):
        page.click("#next")
    check(position.inner_text() == f"Move {moves} of {moves}", "replay: stepping through every move")
    shown = [float(t) for t in page.locator("#result td.score").all_inner_texts()]
    seats = [int(s) for s in page.eval_on_selector_all("#result tbody tr", "rows => rows.map(r => r.dataset.seat)")]
    api_scores = match["result"]["scores"]
    check(
        [shown[seats.index(seat)] for seat in range(len(api_scores))] == [float(s) for s in api_scores],
        f"replay: scores shown {list(zip(seats, shown))} differ from the API's {api_scores}",
    )
    check(page.locator("#deals table").count() == 1, "replay: no scores-per-deal table")
    # Any seat once the match is over: seat 0 sees its own hand.
    with page.expect_response(lambda r: r.url.endswith("/frames?seat=0")):
        page.select_option("#seat-select", "0")
    page.wait_for_function("() => document.querySelector('#view') && document.querySelector('#view').textContent.includes('seat')", timeout=5000)
    page.click("#first")
    page.keyboard.press("ArrowRight")
    accessibility(page, "replay")
    # Seats chosen in quick succession: seat 1's frames, held back until seat 0's have arrived,
    # must not replace them (the page once showed whichever answer came last).
    held = []

    def is_seat_1(url):
        return url.endswith("/frames?seat=1")

    def hold(route):
        held.append(route)

    page.route(is_seat_1, hold)
    page.select_option("#seat-select", "1")
    deadline = time.time() + 10
    while not held and time.time() < deadline:
        page.wait_for_timeout(50)
    check(held, "replay: choosing seat 1 asked for its frames")
    with page.expect_response(lambda r: r.url.endswith("/frames?seat=0")):
        page.select_option("#seat-select", "0")
    page.wait_for_timeout(300)
    seat_0_view = page.inner_text("#view")
    with page.expect_response(lambda r: is_seat_1(r.url)):
        held[0].continue_()
    page.wait_for_timeout(300)
    check(page.inner_text("#view") == seat_0_view, "replay: seat 1's late frames replaced seat 0's")
    check(position.inner_text() == f"Move 1 of {moves}", f"replay: the position moved while seats loaded: {position.inner_text()}")
    page.unroute(is_seat_1)
    page.select_option("#seat-select", index=0)
    page.click("#last")
    page.click("#prev")
    page.screenshot(path=config["screenshots"] + "/replay.png", full_page=True)
    console.assert_clean("replay")
    page.close()
    print(f"ok: replay of {moves} moves, scores {api_scores}")


def live(context):
    created = api("/v1/matches", {"game": "twenty_two", "bots": config["slow_bots"], "seed": 11})
    match_id = created["id"]
    page, console = open_page(context, f"/match/{match_id}", "#live-status")
    page.wait_for_function("() => Number(document.getElementById('match').dataset.liveEvents || 0) >= 3", timeout=30000)
    status_while = api(f"/v1/matches/{match_id}")["status"]
    received = int(page.get_attribute("#match", "data-live-events"))
    check(status_while in ("running", "queued"), f"live: the match had already ended ({status_while}) when {received} events arrived")
    # A seat's view stays closed while the match runs.
    check(page.locator("#seat-select option[value='0']").is_disabled(), "live: seat views must wait for the end")
    page.wait_for_function("() => document.getElementById('status').textContent === 'finished'", timeout=120000)
    page.wait_for_selector("#result table")
    final = api(f"/v1/matches/{match_id}")
    shown = page.locator("#position").inner_text()
    check(shown.endswith(f"of {len(final['moves'])}"), f"live: the viewer shows {shown}, the match has {len(final['moves'])} moves")
    console.assert_clean("live match")
    page.close()
    print(f"ok: live match page received {received}+ events while running")


def play(context, game, screenshot=None, base=None):
    global BASE
    saved, BASE = BASE, base or BASE
    try:
        play_at(context, game, screenshot)
    finally:
        BASE = saved


def play_at(context, game, screenshot):
    page, console = open_page(context, f"/play/{game}?delay=0&seed=5", "#setup")
    # What the page sends back: the state it holds (an object, or a sealed token as a string).
    held = []
    page.on(
        "request",
        lambda request: held.append(type(json.loads(request.post_data or "{}").get("state")).__name__)
        if request.url.endswith("/apply")
        else None,
    )
    page.click("#start")
    tried_illegal = False
    clicks = 0
    deadline = time.time() + 240
    while True:
        check(time.time() < deadline, f"play {game}: no end after {clicks} clicks")
        try:
            page.wait_for_function(
                "() => document.getElementById('play').dataset.over === 'true' || "
                "document.querySelector('#actions button.action:not([disabled])') !== null",
                timeout=30000,
            )
        except Exception as error:
            raise AssertionError(
                f"play {game} at {BASE}: no choice and no end after {clicks} clicks ({error.__class__.__name__}); "
                f"turn: {page.inner_text('#turn')!r}; problem: {page.inner_text('#problem')!r}; console: {console.errors}"
            )
        if page.get_attribute("#play", "data-over") == "true":
            break
        if not tried_illegal and clicks >= 6:
            # An illegal attempt is explained with the API's reason, and nothing is lost.
            console.allowed.append("status of 422")
            page.fill("#free-action", '{"type": "play", "cards": ["JK"]}')
            page.click("#free-try")
            page.wait_for_selector("#problem .error")
            text = page.inner_text("#problem")
            check("Refused" in text and "illegal_action" in text, f"play {game}: illegal attempt not explained: {text}")
            console.allowed.remove("status of 422")
            tried_illegal = True
            if screenshot:
                page.screenshot(path=screenshot, full_page=True)
            # By keyboard: the first choice has the focus; Enter plays it.
            page.locator("#actions button.action").first.focus()
            page.keyboard.press("Enter")
        else:
            page.locator("#actions button.action:not([disabled])").first.click()
        clicks += 1
    check(tried_illegal, f"play {game}: the game ended before an illegal attempt")
    sealed = api("/healthz")["sealed"]
    check(held and set(held) == {"str" if sealed else "dict"}, f"play {game}: the page sent states of kinds {set(held)}")
    check(page.locator("#play-result table").count() == 1, f"play {game}: no result shown")
    accessibility(page, f"play {game}")
    console.assert_clean(f"play {game}")
    page.close()
    print(f"ok: a person played a whole game of {game} in {clicks} choices at {BASE}")


def main():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            every_page_loads(context)
            leaderboard(context)
            bot_page(context)
            replay(context)
            live(context)
            play(context, "twenty_two", screenshot=config["screenshots"] + "/play.png")
            play(context, "basra")
            # A sealing server: the page holds a sealed token and plays the same way.
            sealed = api_at(config["sealed_base"], "/healthz")
            check(sealed["sealed"] is True, f"the second server does not seal: {sealed}")
            play(context, "twenty_two", base=config["sealed_base"])
        finally:
            browser.close()
    print("all browser checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
