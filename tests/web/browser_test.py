"""The web pages in a real browser: Debian's Chromium driven by Playwright for Python.

Run by tests/e2e/web.rs, which starts the server (with its arena and a slow loopback bot) and
passes a JSON config as argv[1]:
  {"base", "finished_match", "slow_bots", "builtin_bots", "admin_token", "screenshots", "bot",
   "failing_bot"}
Checks: every page loads with no console error and no Content-Security-Policy violation (the
docs page too); the replay viewer steps through a finished match
(buttons, slider, keys, speeds) and the scores it shows equal the API's; a live match page receives
events while the match runs; on a paced live match with a clock the seat to act is highlighted and its
clock ticks, and the deal's commitment is verified once it is over; the match page reads no "null",
lists its seats one per line and names its per-deal score columns; two people in two browsers and two
bots finish a watten table through its links; two people become players on the play page, one invites
the other to a rated table (its link shown with a copy button), both finish it, see "Play again" and
their ratings (player page, people's leaderboard); the lobby lists a table with open seats (Join leads
to it) and drops it once they are taken; one page reloaded mid-game, the open seat's name typed
slower than the page refreshes; a person plays a whole game of every family by clicking cards (buttons
only for moves no card names), with readable log sentences, every seat, the centre and the hand in
view at 1280x900, the result named at the top with links to the replay and the deal's check, and in
every family with tricks each completed trick shown with all its cards and its winner, held 1.2 s
when a bot leads next; replay frames show completed tricks; a whole game played with the keyboard
(arrows between cards, the focus kept in the hand), the tab's title and a WebAudio chime saying
"Your turn", the seed commitment shown from the start; a phone (390x844) plays a whole game and no
page scrolls sideways there; card faces have text alternatives; text has sufficient contrast (WCAG
AA). Writes screenshots.
Fails loudly (non-zero exit, a message naming the check) on the first failure.
"""

import json
import sys
import time
import urllib.parse
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


def check(condition, message):
    if not condition:
        raise AssertionError(message)


# Records every Content-Security-Policy violation of a page (issue 48: the pages send a CSP that
# allows scripts and styles from the server only; an inline script or style would be blocked).
CSP_JS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', e =>
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`));
"""


class Console:
    """Collects console errors, uncaught page errors and CSP violations of one page."""

    def __init__(self, page):
        self.page = page
        self.errors = []
        self.allowed = []
        page.add_init_script(CSP_JS)
        page.on("console", self.on_console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def on_console(self, message):
        text = message.text
        # A CSP violation fails the check whatever is allowed.
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.errors.append(f"CSP violation: {text} at {message.location}")
            return
        if message.type != "error":
            return
        if any(allowed in text for allowed in self.allowed):
            return
        self.errors.append(f"console error: {text} at {message.location}")

    def assert_clean(self, where):
        try:
            violations = self.page.evaluate("() => window.__cspViolations || []")
        except Exception:  # the page navigated away or closed: its console still counts
            violations = []
        check(not violations, f"{where}: CSP violations {violations}")
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


def site_pages(families):
    """Every page (path, what shows it has loaded): the site's own, every family's play page
    and rules page."""
    return [
        ("/", "#catalog .family"),
        ("/leaderboard", "#boards li"),
        ("/leaderboard/twenty_two", "#board table, #board p"),
        ("/matches", "#list table"),
        ("/match/" + config["finished_match"], "#result table"),
        ("/bot/" + config["bot"], "#latency"),
        ("/play", "#games li"),
    ] + [("/play/" + f, "#setup") for f in families] + [("/rules/" + f, "article.rules h1") for f in families]


def every_page_loads(context):
    games = api("/v1/games")
    families = sorted({g["family"] for g in games})
    # The docs page (Swagger UI, offline) rendered in full: its title comes from /openapi.json.
    pages = site_pages(families) + [("/docs/", ".swagger-ui .info .title")]
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
    # One board per table size: the switch names the size shown and links every other one played.
    current = page.locator('#board-sizes [aria-current="page"]').inner_text()
    check(current == f"{board['players']} players", f"leaderboard: the size switch shows {current!r}")
    links = page.locator("#board-sizes a").count()
    others = len([n for n in board["table_sizes"] if int(n) != board["players"]])
    check(links == others, f"leaderboard: {links} size links, {others} other sizes played")
    page.screenshot(path=config["screenshots"] + "/leaderboard.png", full_page=True)
    console.assert_clean("leaderboard")
    page.close()
    print("ok: leaderboard")


def seat_columns(page, where, names):
    """Every "Bots (by seat)" cell lists one link per bot seat, named after its bot, in seat order."""
    rows = page.locator("#matches-table tbody tr")
    check(rows.count() > 0, f"{where}: no match listed")
    for row in range(min(rows.count(), 10)):
        match_id = rows.nth(row).get_attribute("data-match")
        bots = api(f"/v1/matches/{match_id}")["seats"]
        cell = rows.nth(row).locator("td.seats")
        links = cell.locator("[data-seat]")
        shown = [links.nth(i).inner_text() for i in range(links.count())]
        # A person's seat is named, not linked: there is no bot page behind it.
        expected = ["a person" if s["bot"] == "person" else names.get(s["bot"], s["bot"]) for s in bots]
        check(shown == expected, f"{where}: seats of {match_id} shown as {shown}")
        check(cell.locator("a[href='/bot/person']").count() == 0, f"{where}: a person's seat links to /bot/person")
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
    # Speeds: at 4x a move takes 150 ms.
    page.select_option("#speed", "4")
    page.click("#first")
    page.click("#play")
    started = time.time()
    page.wait_for_function("() => document.getElementById('position').textContent.startsWith('Move 4 ')", timeout=5000)
    check(time.time() - started < 1.5, f"replay: 4x plays 4 moves in {time.time() - started:.2f} s")
    page.click("#play")
    page.select_option("#speed", "1")
    # The table, not a list: seats, and per move the bot's latency.
    check(page.locator("#view .seat").count() == len(match["seats"]), "replay: one seat box per seat")
    check("answered in" in page.inner_text("#move-info"), f"replay: no latency shown: {page.inner_text('#move-info')!r}")
    check("null" not in page.inner_text("#move-info"), f"replay: the move reads {page.inner_text('#move-info')!r}")
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
    headers = page.locator("#deals thead th").all_inner_texts()
    check(not any(h.strip().isdigit() for h in headers), f"replay: per-deal score columns headed {headers}")
    check(page.locator("#deals tbody th").first.inner_text().startswith("Deal "), "replay: per-deal rows are named by deal")
    # The seats, one per line ("0. heuristi1. random" once): each its own line, none overlapping.
    seat_lines = page.locator("#match-seats li").all_inner_texts()
    check(seat_lines == [f"Seat {s['seat']}: {s['name'] or s['bot']}" for s in match["seats"]], f"replay: seats read {seat_lines}")
    boxes = page.eval_on_selector_all("#match-seats li", "items => items.map(i => i.getBoundingClientRect().top)")
    check(all(b > a for a, b in zip(boxes, boxes[1:])), f"replay: seat lines overlap: {boxes}")
    completed_trick_frames(page, match)
    # Any seat once the match is over: seat 0 sees its own hand.
    with page.expect_response(lambda r: r.url.endswith("/frames?seat=0")):
        page.select_option("#seat-select", "0")
    page.wait_for_selector("#view .my-hand", timeout=5000)
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


def completed_trick_frames(page, match):
    """The frame of every trick's last card shows the completed trick, all its cards and its
    winner (also where the same move dealt the next deal)."""
    frames = api(f"/v1/matches/{match['id']}/frames")["frames"]
    players = len(match["seats"])
    closing = [i for i, f in enumerate(frames) if any(e["type"] == "trick_won" for e in f["events"])]
    check(closing, "replay: the match completed no trick")
    deal_ends = [i for i in closing if any(e["type"] == "deal" for e in frames[i]["events"])]
    for index in closing[:4] + deal_ends[:2]:
        page.locator("#slider").fill(str(index))
        page.wait_for_selector("#view .centre > .trick.done", timeout=5000)
        plays = page.locator("#view .centre > .trick.done .play").count()
        winners = page.locator("#view .centre > .trick.done .play.winner").count()
        winner = next(e["seat"] for e in frames[index]["events"] if e["type"] == "trick_won")
        marked = page.locator("#view .centre > .trick.done .play.winner").get_attribute("data-seat")
        check(plays == players and winners == 1 and marked == str(winner),
              f"replay: frame {index} shows a trick of {plays} plays, {winners} winners ({marked}, not {winner})")
    print(f"ok: replay frames show {len(closing)} completed tricks ({len(deal_ends)} ending a deal)")


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


def api_delete(path):
    request = urllib.request.Request(
        BASE + path, method="DELETE", headers={"authorization": "Bearer " + config["admin_token"]}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def clock_seconds(text):
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def acting_clock(page):
    """The seat to act on the live table and its clock ("m:ss"), with the move shown."""
    return page.evaluate(
        """() => {
             const seat = document.querySelector('#view .seat.acting');
             const clock = seat && seat.querySelector('.clock');
             return seat && clock ? {seat: seat.dataset.seat, clock: clock.textContent,
                                     current: seat.getAttribute('aria-current'),
                                     position: document.getElementById('position').textContent} : null;
           }"""
    )


def paced_live_match():
    return api("/v1/matches", {"game": "twenty_two", "bots": config["builtin_bots"], "seed": 12,
                               "pace_ms": 2500, "clock": {"initial_ms": 60000, "increment_ms": 0}})["id"]


def live_clock_and_fair_deal(context):
    """A live paced match with a clock: the seat to act is highlighted and its clock ticks down
    between moves; the seed commitment shows from the start and the seed stays secret; once the
    match is over (here cancelled) the page checks the revealed seed against it. A finished
    match's page shows the deal verified."""
    match_id = paced_live_match()
    page, console = open_page(context, f"/match/{match_id}", "#view .seat.acting .clock")
    running = api(f"/v1/matches/{match_id}")
    check(running["status"] in ("queued", "running") and running["seed"] is None and running.get("seed_salt") is None,
          f"live: the seed shows while the match runs: {running}")
    check(page.locator("#seed-commitment").inner_text() == running["seed_commitment"],
          "live: the page does not show the commitment of GET /v1/matches/{id}")
    check("stays secret" in page.locator("#deal-status").inner_text(), "live: no word on the secret seed")
    ticked = None
    for _ in range(5):
        before = acting_clock(page)
        page.wait_for_timeout(1300)
        after = acting_clock(page)
        if before and after and before["position"] == after["position"] and before["seat"] == after["seat"]:
            ticked = (before, after)
            break
    check(ticked is not None, "live: no stretch of 1.3 s without a move to watch the clock in")
    before, after = ticked
    check(before["current"] == "true", f"live: the seat to act is not marked current: {before}")
    check(clock_seconds(after["clock"]) < clock_seconds(before["clock"]),
          f"live: the clock of seat {before['seat']} to act does not tick down: {before['clock']} then {after['clock']}")
    others = page.evaluate("() => [...document.querySelectorAll('#view .seat:not(.acting)')].length")
    check(others >= 1, "live: only the seat to act is highlighted")
    api_delete(f"/v1/matches/{match_id}")
    page.wait_for_selector("#deal-status[data-verified]", timeout=30000)
    verdict = page.locator("#deal-status").inner_text()
    check("Deal verified: the seed matches the commitment published at the start" in verdict,
          f"live: once over, the deal is not verified: {verdict!r}")
    console.assert_clean("live paced match")
    page.close()

    page, console = open_page(context, "/match/" + config["finished_match"], "#deal-status[data-verified]")
    verdict = page.locator("#deal-status").inner_text()
    check(page.get_attribute("#deal-status", "data-verified") == "true" and "Deal verified" in verdict,
          f"finished match: {verdict!r}")
    console.assert_clean("finished match's deal")
    page.close()
    print(f"ok: live clock ticked {before['clock']} -> {after['clock']} for seat {before['seat']}; deals verified")


# Records what the centre of the table shows, each time it changes: the trick (done or in
# progress), its plays, the winner marked, and who played first. Installed before the table's
# page runs (an init script), so nothing drawn before the test looks is missed.
TRICK_WATCH_JS = """
window.__tricks = [];
document.addEventListener('DOMContentLoaded', () => {
  let last = null;
  const look = () => {
    const box = document.getElementById('my-view');
    if (!box) return;
    const trick = box.querySelector('.centre > .trick');
    const plays = trick ? [...trick.querySelectorAll('.play')] : [];
    const sig = trick ? (trick.dataset.complete ? 'done ' : 'open ') + plays.map(p => p.dataset.seat + ':' + [...p.querySelectorAll('[data-code]')].map(c => c.dataset.code).join('+')).join(',') : 'none';
    if (sig === last) return;
    last = sig;
    const me = box.querySelector('.seat.me');
    window.__tricks.push({ at: performance.now(), done: Boolean(trick && trick.dataset.complete), plays: plays.length,
      winners: trick ? trick.querySelectorAll('.play.winner').length : 0, first: plays.length ? plays[0].dataset.seat : null,
      me: me ? me.dataset.seat : null, sig });
  };
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
});
"""


def check_tricks(page, game, players):
    """Every trick the log says was won was shown complete, with all its cards and one winner;
    when a bot led next, it stayed at least 1.2 s."""
    seen = page.evaluate("window.__tricks")
    lines = [line for line in page.locator("#log li").all_inner_texts() if " the trick" in line or " plays " in line or " play " in line]
    won = sum(1 for line in lines if " the trick" in line and ("wins" in line or "win " in line))
    done = [i for i, r in enumerate(seen) if r["done"]]
    check(won > 0, f"table {game}: no trick won in the log")
    check(len(done) >= won, f"table {game}: {won} tricks won, {len(done)} shown complete: {[r['sig'] for r in seen]}; log: {lines}")
    for i in done:
        r = seen[i]
        check(r["plays"] == players and r["winners"] == 1, f"table {game}: a completed trick shown as {r}")
        following = seen[i + 1] if i + 1 < len(seen) else None
        if following and not following["done"] and following["plays"] >= 1 and following["first"] != r["me"]:
            held = following["at"] - r["at"]
            check(held >= 1150, f"table {game}: the completed trick {r['sig']} stayed {held:.0f} ms before a bot's lead")
    return won


# What a person clicks next: a card or tile that names moves, a choice it opened, else a button.
NEXT_CLICK = (
    ".choices:not([hidden]) button.choice, .playable:not([disabled]), #actions button.action:not([disabled])"
)
WAIT_FOR_TURN = (
    "() => document.getElementById('play').dataset.over === 'true' || "
    f"document.querySelector({json.dumps(NEXT_CLICK)}) !== null"
)


def turns(page, what, limit=240):
    """Yields at each of the person's turns (their number, from 0) until the game is over;
    fails past `limit` seconds."""
    deadline = time.time() + limit
    count = 0
    while True:
        check(time.time() < deadline, f"{what}: no end after {count} turns")
        page.wait_for_function(WAIT_FOR_TURN, timeout=30000)
        if page.get_attribute("#play", "data-over") == "true":
            return
        yield count
        count += 1


def click_next(page):
    """Clicks what a person would: an open choice, else a card or tile, else a button. Answers
    what it clicked ("piece", "choice" or "button")."""
    if page.locator(".choices:not([hidden]) button.choice").count():
        page.locator(".choices:not([hidden]) button.choice").first.click()
        return "choice"
    pieces = page.locator(".playable:not([disabled])")
    if pieces.count():
        pieces.first.click()
        return "piece"
    page.locator("#actions button.action:not([disabled])").first.click()
    return "button"


def inside_viewport(page, selector, height):
    """Every element of `selector` lies inside the viewport (0..width, 0..height), unscrolled."""
    return page.evaluate(
        """([selector, height]) => [...document.querySelectorAll(selector)].map(e => {
             const r = e.getBoundingClientRect();
             return {ok: r.top >= 0 && r.left >= 0 && r.bottom <= height && r.right <= window.innerWidth,
                     box: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]};
           })""",
        [selector, height],
    )


def play(context, game, screenshot):
    page, console = open_page(context, f"/play/{game}?delay=0&seed=5", "#setup")
    # The play page opens a table with the bots; the person's moves go to the arena.
    moves = []
    page.on("request", lambda request: moves.append(request.url) if request.url.endswith("/move") else None)
    page.click("#start")
    tried_illegal = False
    clicks = 0
    deadline = time.time() + 240
    while True:
        check(time.time() < deadline, f"play {game}: no end after {clicks} clicks")
        try:
            page.wait_for_function(WAIT_FOR_TURN, timeout=30000)
        except Exception as error:
            raise AssertionError(
                f"play {game}: no choice and no end after {clicks} clicks ({error.__class__.__name__}); "
                f"turn: {page.inner_text('#turn')!r}; problem: {page.inner_text('#problem')!r}; console: {console.errors}"
            )
        if page.get_attribute("#play", "data-over") == "true":
            break
        if not tried_illegal and clicks >= 6:
            # An illegal attempt is explained with the API's reason, and nothing is lost.
            console.allowed.append("status of 422")
            page.click("details.free summary")
            page.fill("#free-action", '{"type": "play", "cards": ["JK"]}')
            page.click("#free-try")
            page.wait_for_selector("#problem .error")
            text = page.inner_text("#problem")
            check("Refused" in text and "illegal_action" in text, f"play {game}: illegal attempt not explained: {text}")
            console.allowed.remove("status of 422")
            tried_illegal = True
            if screenshot:
                page.screenshot(path=screenshot, full_page=True)
            # By keyboard: a playable card takes the focus; Enter plays it.
            page.wait_for_function(WAIT_FOR_TURN, timeout=30000)
            if page.get_attribute("#play", "data-over") != "true":
                page.locator(NEXT_CLICK).first.focus()
                page.keyboard.press("Enter")
        else:
            click_next(page)
        clicks += 1
    check(tried_illegal, f"play {game}: the game ended before an illegal attempt")
    check("/table/" in page.url and "key=" in page.url, f"play {game}: not at the seat's link: {page.url}")
    check(moves and all("/v1/tables/" in url for url in moves), f"play {game}: moves sent to {set(moves)}")
    # Kept like any match: finished, with the person's seat.
    table_id = page.url.split("/table/")[1].split("#")[0]
    table = api(f"/v1/tables/{table_id}")
    check(table["status"] == "finished", f"play {game}: the table's match is {table['status']}")
    check(api(f"/v1/matches/{table['match_id']}")["seats"][0]["bot"] == "person", f"play {game}: seat 0 is not a person's")
    check(page.locator("#play-result .summary table").count() == 1, f"play {game}: no result shown")
    accessibility(page, f"play {game}")
    console.assert_clean(f"play {game}")
    page.close()
    print(f"ok: a person played a whole game of {game} in {clicks} choices at a table the arena kept")


def open_seat(context, path, ready):
    """A table page: it asks for news while others play, so the network is never idle."""
    page = context.new_page()
    console = Console(page)
    page.goto(BASE + path, wait_until="load")
    page.wait_for_selector(ready, timeout=20000)
    return page, console


def seat_names(page):
    return page.locator("#my-view .seat").all_inner_texts()


def shared_table(browser):
    """Two people in two browser contexts and two bots finish a 4-player watten table through
    the table's links: Anna by her invitation, Bob by taking the open seat from the table's
    page; Anna's page is reloaded mid-game and resumes her seat."""
    created = api("/v1/tables", {
        "game": "watten", "players": 4, "options": {"target": 11}, "seed": 5,
        "seats": [{"human": "Anna"}, {"bot": "heuristic"}, {"open": True}, {"bot": "random"}],
    })
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    anna, anna_console = open_seat(contexts[0], created["seats"][0]["join_url"], "#my-view .seat")
    check("Waiting for 1 more person" in anna.inner_text("#turn"), f"table: Anna does not wait for Bob: {anna.inner_text('#turn')!r}")
    bob, bob_console = open_seat(contexts[1], created["watch_url"], "#table-seats form.take-seat")
    # Typed slower than the page refreshes (every second): the field keeps every letter.
    bob.type("#name-2", "Bob", delay=450)
    check(bob.input_value("#name-2") == "Bob", f"table: the open seat's name field reads {bob.input_value('#name-2')!r}")
    bob.click("#table-seats form.take-seat button")
    bob.wait_for_selector("#my-view .seat", timeout=20000)
    check("key=" in bob.url, f"table: Bob is not at his seat's link: {bob.url}")
    people = {"Anna": anna, "Bob": bob}
    clicks = {"Anna": 0, "Bob": 0}
    reloaded = False
    deadline = time.time() + 240
    while not all(p.get_attribute("#play", "data-over") == "true" for p in people.values()):
        check(time.time() < deadline, f"table: no end after {clicks}")
        moved = False
        for name, page in people.items():
            if page.get_attribute("#play", "data-over") == "true" or page.locator(NEXT_CLICK).count() == 0:
                continue
            try:
                click_next(page)
            except Exception:
                continue  # the page redrew between the count and the click
            clicks[name] += 1
            moved = True
        if not reloaded and clicks["Anna"] >= 3:
            before = anna.locator("#log li").count()
            anna.reload(wait_until="load")
            anna.wait_for_selector("#my-view .seat", timeout=20000)
            anna.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {before}", timeout=20000)
            check(anna.locator("#my-view .seat.me").count() == 1, "table: the reloaded page is not Anna's seat")
            reloaded = True
        if not moved:
            time.sleep(0.05)
    check(reloaded, f"table: the game ended before Anna's page was reloaded ({clicks})")
    check(any("Bob" in text for text in seat_names(anna)), f"table: Anna does not see Bob: {seat_names(anna)}")
    check(any("Anna" in text for text in seat_names(bob)), f"table: Bob does not see Anna: {seat_names(bob)}")
    check(any("heuristic" in text for text in seat_names(bob)), f"table: Bob does not see the bot's name: {seat_names(bob)}")
    for page in people.values():
        check(page.locator("#play-result .summary h2").count() == 1, "table: no result at the end")
    shown = api(f"/v1/matches/{created['match_id']}")
    check(shown["status"] == "finished", f"table: the match is {shown['status']}")
    names = [s["name"] for s in shown["seats"]]
    check(names == ["Anna", "heuristic", "Bob", "random"], f"table: the match's seats are {names}")
    anna_console.assert_clean("table (Anna)")
    bob_console.assert_clean("table (Bob)")
    for context in contexts:
        context.close()
    print(f"ok: two people in two browsers and two bots finished a watten table ({clicks}), one page reloaded mid-game")


def finish_together(people, what, limit=240):
    """Clicks each person's next move in turn until every page says the game is over."""
    clicks = {name: 0 for name in people}
    deadline = time.time() + limit
    while not all(p.get_attribute("#play", "data-over") == "true" for p in people.values()):
        check(time.time() < deadline, f"{what}: no end after {clicks}")
        moved = False
        for name, page in people.items():
            if page.get_attribute("#play", "data-over") == "true" or page.locator(NEXT_CLICK).count() == 0:
                continue
            try:
                click_next(page)
            except Exception:
                continue  # the page redrew between the count and the click
            clicks[name] += 1
            moved = True
        if not moved:
            time.sleep(0.05)
    return clicks


def rated_table_of_friends(browser):
    """Two people become players on the play page; one invites the other as a friend to a rated
    table from /play (the invitation's link shown with a copy button), both finish it through
    their links, ask to play again (one rematch, Ben's renewed link the one Ada is given), and each sees their rating on their player page and on the
    people's leaderboard."""
    game = "chinese_ten_taiwan"
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    ids = {}
    pages = {}
    for context, name in zip(contexts, ["Ada", "Ben"]):
        page, console = open_page(context, f"/play/{game}?delay=0", "#become-player")
        page.fill("#player-name", name)
        page.click("#become-player button[type=submit]")
        page.wait_for_selector("#my-player", timeout=20000)
        ids[name] = page.get_attribute("#my-player", "href").rsplit("/", 1)[-1]
        check(ids[name].startswith("p_"), f"rated table: {name}'s player link is {ids[name]!r}")
        check(page.locator("#rated").is_visible(), f"rated table: no Rated box for {name}")
        pages[name] = (page, console)
    ada, ada_console = pages["Ada"]
    ada.select_option("#seat-kind-1", "player")
    ada.fill("#seat-value-1", ids["Ben"])
    ada.check("#rated")
    ada.click("#start")
    ada.wait_for_selector("#invitations #invite-1", timeout=20000)
    link = ada.input_value("#invite-1")
    check(link.startswith(BASE + "/table/") and "key=" in link, f"rated table: Ben's invitation is {link!r}")
    check(ada.locator("#copy-1").count() == 1, "rated table: no copy button beside the invitation")
    check(ada.locator("#invitations [data-invite]").count() == 1, "rated table: bots got invitations")
    ada.click("#to-my-seat")
    ada.wait_for_selector("#my-view .seat", timeout=20000)
    ben, ben_console = open_seat(contexts[1], link[len(BASE):], "#my-view .seat")
    clicks = finish_together({"Ada": ada, "Ben": ben}, "rated table")
    for page in (ada, ben):
        check(page.locator("#play-result .summary h2").count() == 1, "rated table: no result at the end")
        check(page.locator("#play-again").count() == 1, "rated table: no Play again at the end")
    # Play again: Ada's rematch shows Ben's renewed link; Ben asking too gets the same table.
    ada.click("#play-again")
    ada.wait_for_selector("#play-again-box #invite-1", timeout=20000)
    again = ada.input_value("#play-again-box #invite-1")
    ben.click("#play-again")
    ben.wait_for_selector("#play-again-box #to-my-seat", timeout=20000)
    ben_again = ben.get_attribute("#play-again-box #to-my-seat", "href")
    check(again.startswith(BASE + "/table/") and again != link, f"rated table: the rematch's invitation is {again!r}")
    check(again[len(BASE):] == ben_again, f"rated table: Ben's rematch seat {ben_again!r} is not Ada's invitation {again!r}")
    for name, player in ids.items():
        page, console = open_page(contexts[0], f"/player/{player}", f'#player-ratings tr[data-game="{game}"]')
        cells = page.locator(f'#player-ratings tr[data-game="{game}"] td').all_inner_texts()
        check(cells[1] == "4" and cells[-1] == "1", f"rated table: {name}'s rating row reads {cells}")
        check(page.inner_text("#player-title") == f"Player: {name}", f"rated table: {page.inner_text('#player-title')!r}")
        console.assert_clean(f"player page ({name})")
        page.close()
    board, board_console = open_page(contexts[1], f"/leaderboard/{game}?players=4&kind=people", "#leaderboard-table")
    rows = board.locator("#leaderboard-table tbody tr[data-player]").count()
    check(rows == 2, f"rated table: the people's leaderboard has {rows} rows")
    check(board.locator(f'a[href="/player/{ids["Ada"]}"]').count() == 1, "rated table: Ada's name does not link to her page")
    board_console.assert_clean("people's leaderboard")
    ada_console.assert_clean("rated table (Ada)")
    ben_console.assert_clean("rated table (Ben)")
    for context in contexts:
        context.close()
    print(f"ok: two players invited from /play finished a rated {game} table ({clicks}) and see their ratings")


def lobby_lists_then_drops(context):
    """The home page's lobby lists a table with open seats (a Join button leading to the table's
    page), and drops it once its open seats are taken."""
    created = api("/v1/tables", {"game": "twenty_two", "players": 2, "seats": [{"open": True}, {"open": True}]})
    row = f'#lobby-table tr[data-table="{created["id"]}"]'
    page, console = open_page(context, "/", row)
    check(page.locator(f'{row} button[data-join]').count() == 1, "lobby: no Join button")
    visitor, visitor_console = open_page(context, "/play/twenty_two", row)
    visitor.click(f'{row} button[data-join]')
    visitor.wait_for_selector("#table-seats form.take-seat", timeout=20000)
    check(visitor.url.endswith(created["watch_url"]), f"lobby: Join led to {visitor.url}")
    for name in ["Lou", "Max"]:
        api(f"/v1/tables/{created['id']}/join", {"name": name})
    page.wait_for_selector(row, state="detached", timeout=20000)
    console.assert_clean("lobby")
    visitor_console.assert_clean("lobby (Join)")
    page.close()
    visitor.close()
    print("ok: the lobby listed a table with open seats and dropped it once they were taken")


# One short game of every family: (game id, players, options that keep it short).
FAMILY_GAMES = [
    ("twenty_two", 2, {}),
    ("watten", 2, {"target": 11}),
    ("basra", 2, {"game_end": {"target": 20}}),
    ("bird_dog", 3, {"target": 5, "max_hands": 1}),
    ("chinese_ten", 2, {"deals": 1}),
    ("marglia", 4, {"game_length": {"deals": 1}}),
    ("maniglia", 3, {"game_length": {"deals": 1}}),
    ("sloppy_seconds", 3, {"target": 5}),
    ("taihe_abao", 3, {"hands": 1}),
    ("tjak_mat_tchi_ki", 2, {"hands": 1}),
    ("trump_crew", 2, {"stages": 1}),
]
# The families that play tricks (their completed tricks are checked).
TRICK_FAMILIES = {"twenty_two", "watten", "bird_dog", "marglia", "maniglia", "sloppy_seconds", "trump_crew"}
# The families whose tables go into the README.
SCREENSHOT_FAMILIES = {"watten": "table-watten.png", "basra": "table-basra.png", "tjak_mat_tchi_ki": "table-tjak.png"}


def every_family_at_the_table(context):
    """For every family: a whole game played by clicking cards (a button only for a move no card
    names), the table in view at 1280x900, a log of sentences, the winner named at the top."""
    families = sorted({g["family"] for g in api("/v1/games")})
    check(sorted(g for g, _, _ in FAMILY_GAMES) == families, f"a game for every family: {families}")
    for game, players, options in FAMILY_GAMES:
        query = urllib.parse.urlencode({"delay": "0", "seed": "5", "players": players, "options": json.dumps(options)})
        page, console = open_page(context, f"/play/{game}?{query}", "#setup")
        page.add_init_script(TRICK_WATCH_JS)
        page.click("#start")
        counts = {"piece": 0, "choice": 0, "button": 0}
        checked_view = False
        for _ in turns(page, f"table {game}"):
            if not checked_view:
                # The first screen of the table: every seat, the centre and the hand in view.
                page.evaluate("window.scrollTo(0, 0)")
                page.locator("#turn").scroll_into_view_if_needed()
                page.evaluate("document.getElementById('turn').scrollIntoView({block: 'start'})")
                for part in ["#my-view .seat", "#my-view .centre", "#my-view .my-hand"]:
                    boxes = inside_viewport(page, part, 900)
                    check(boxes and all(b["ok"] for b in boxes), f"table {game}: {part} not all in view at 1280x900: {boxes}")
                check(page.locator("#my-view .seat").count() == players, f"table {game}: one box per seat")
                check(page.locator("#my-view .seat.acting").count() >= 1, f"table {game}: the seat to act is highlighted")
                backs = page.locator("#my-view .seat:not(.me) .backs").count()
                check(backs >= 1 or game == "bird_dog", f"table {game}: hidden hands as backs")
                if game in SCREENSHOT_FAMILIES:
                    page.screenshot(path=config["screenshots"] + "/" + SCREENSHOT_FAMILIES[game])
                if game == "tjak_mat_tchi_ki":
                    check(page.locator("#my-view .tile .pip").count() > 0, "tiles are drawn with pips")
                    check(page.locator("#my-view .tile").first.inner_text().strip() == "", "tiles show pips, not digits")
                checked_view = True
            counts[click_next(page)] += 1
        log = page.inner_text("#log")
        for word in ["null", "{", "undefined", "NaN"]:
            check(word not in log, f"table {game}: the log reads {word!r}: {log[:2000]}")
        summary = page.locator("#play-result .summary")
        check(summary.count() == 1, f"table {game}: no summary at the end")
        tricks = check_tricks(page, game, players) if game in TRICK_FAMILIES else 0
        match_id = api(f"/v1/tables/{page.url.split('/table/')[1].split('#')[0]}")["match_id"]
        check(page.get_attribute("#replay-link", "href") == f"/match/{match_id}", f"table {game}: no link to the replay")
        check(page.get_attribute("#fairness-link", "href") == f"/match/{match_id}#deal-check", f"table {game}: no link to the deal's check")
        headline = page.inner_text("#play-result .summary h2")
        check(("win" in headline) or ("over" in headline), f"table {game}: the summary names no winner: {headline!r}")
        summary_top = page.evaluate("document.querySelector('#play-result').getBoundingClientRect().top")
        table_top = page.evaluate("document.querySelector('#my-view').getBoundingClientRect().top")
        check(summary_top < table_top, f"table {game}: the result is not above the table")
        if game not in ("bird_dog", "taihe_abao", "trump_crew"):
            check(counts["piece"] > counts["button"], f"table {game}: cards are the moves, yet {counts}")
        console.assert_clean(f"table {game}")
        page.close()
        print(f"ok: {game}: a whole game by clicking ({counts}), log of {len(log.splitlines())} sentences, {tricks} completed tricks shown, {headline!r}")


# Counts the tones the page makes with WebAudio (the turn chime), before any page script runs.
SOUND_SPY_JS = """
window.__tones = 0;
const RealAudio = window.AudioContext || window.webkitAudioContext;
if (RealAudio) {
  window.AudioContext = class extends RealAudio {
    createOscillator() { window.__tones += 1; return super.createOscillator(); }
  };
}
"""


def focus_in_hand(page):
    return page.evaluate("() => Boolean(document.activeElement && document.activeElement.closest('#my-view .my-hand'))")


def keyboard_game(browser):
    """A whole game of sloppy_seconds played with the keyboard alone: the arrows move between
    the cards of the hand, Enter plays one, and after every redraw the focus is still in the
    hand. The seed commitment shows from the start; the tab's title and (once turned on) a
    WebAudio chime say "Your turn"."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(SOUND_SPY_JS)
    query = urllib.parse.urlencode({"delay": "0", "seed": "7", "players": 3, "forced": "ask", "options": json.dumps({"target": 5})})
    page, console = open_page(context, f"/play/sloppy_seconds?{query}", "#setup")
    page.click("#start")
    page.wait_for_selector("#my-view .my-hand button.piece", timeout=20000)
    table = api(f"/v1/tables/{page.url.split('/table/')[1].split('#')[0]}")
    commitment = api(f"/v1/matches/{table['match_id']}")["seed_commitment"]
    page.wait_for_selector("#seed-commitment", timeout=10000)
    check(page.inner_text("#seed-commitment") == commitment, "keyboard: the table does not show the match's seed commitment")
    page.click("#table-box summary")
    page.check("#turn-sound")
    check(page.evaluate("window.__tones") >= 2, "keyboard: turning the chime on plays no tone")
    tones = page.evaluate("window.__tones")
    page.locator("#my-view .my-hand button.piece[tabindex='0']").focus()
    moves = arrows = titled = 0
    for turn in turns(page, "keyboard"):
        check(focus_in_hand(page), f"keyboard: move {turn}: the focus left the hand ({page.evaluate('document.activeElement.outerHTML.slice(0, 80)')})")
        titled += page.title().startswith("Your turn")
        for _ in range(page.locator("#my-view .my-hand button.piece").count()):
            if page.evaluate("document.activeElement.classList.contains('playable')"):
                break
            page.keyboard.press("ArrowRight")
            arrows += 1
            check(focus_in_hand(page), "keyboard: an arrow took the focus out of the hand")
        code = page.evaluate("document.activeElement.dataset.code")
        check(page.evaluate("document.activeElement.classList.contains('playable')"), f"keyboard: no playable card reached with the arrows ({code})")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "code => document.getElementById('play').dataset.over === 'true' || !document.querySelector(`#my-view .my-hand [data-code='${code}']`)",
            arg=code, timeout=30000)
        moves = turn + 1
    check(moves >= 10 and arrows > 0, f"keyboard: {moves} moves, {arrows} arrow presses")
    check(titled == moves, f"keyboard: the title said 'Your turn' at {titled} of {moves} turns")
    check(not page.title().startswith("Your turn"), f"keyboard: the title still reads {page.title()!r} after the game")
    check(page.evaluate("window.__tones") > tones, "keyboard: no chime when a turn began")
    check(page.locator("#play-result .summary h2").count() == 1, "keyboard: no result at the end")
    # The end links to the replay and to the check of the deal, which the match page makes.
    page.click("#fairness-link")
    page.wait_for_selector("#deal-status[data-verified]", timeout=20000)
    check(page.get_attribute("#deal-status", "data-verified") == "true", f"keyboard: the deal's check reads {page.inner_text('#deal-status')!r}")
    console.assert_clean("keyboard game")
    context.close()
    print(f"ok: a whole game by keyboard ({moves} moves, {arrows} arrow presses), focus kept in the hand, 'Your turn' in the title and chimed")


def phone_game(browser):
    """A phone (390x844) plays a whole game of marglia for four to its end: no page width
    beyond the screen at any turn, every completed trick shown."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    query = urllib.parse.urlencode({"delay": "0", "seed": "3", "players": 4, "options": json.dumps({"game_length": {"deals": 1}})})
    page, console = open_page(context, f"/play/marglia?{query}", "#setup")
    page.add_init_script(TRICK_WATCH_JS)
    page.click("#start")
    moves = 0
    shot = False
    wide = "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    for turn in turns(page, "phone"):
        width, screen = page.evaluate(wide)
        check(width <= screen, f"phone: move {turn}: the page scrolls sideways: {width} > {screen}")
        click_next(page)
        moves = turn + 1
        if not shot:
            # The trick this card joined completes once the bots have played: its picture.
            try:
                page.wait_for_selector("#my-view .centre > .trick.done", timeout=3000)
            except Exception:
                continue
            page.evaluate("document.getElementById('turn').scrollIntoView({block: 'start'})")
            page.screenshot(path=config["screenshots"] + "/table-mobile.png")
            shot = True
    width, screen = page.evaluate(wide)
    check(width <= screen, f"phone: at the end the page scrolls sideways: {width} > {screen}")
    tricks = check_tricks(page, "marglia (phone)", 4)
    check(shot, "phone: no completed trick on screen")
    check(page.locator("#play-result .summary h2").count() == 1, "phone: no result at the end")
    console.assert_clean("phone game")
    context.close()
    print(f"ok: a phone at 390x844 played a whole game of marglia ({moves} moves, {tricks} tricks) without scrolling sideways")


def no_sideways_scroll(browser):
    """At 390x844 no page scrolls sideways; on the play page the centre and the hand fit the
    first screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    # Every page, the live match page and the API docs included.
    live_id = paced_live_match()
    pages = site_pages(sorted({g["family"] for g in api("/v1/games")})) + [
        ("/match/" + live_id, "#view .seat.acting"),
        ("/matches?game=twenty_two", "#list table"),
        ("/docs/", "body"),
    ]
    for path, ready in pages:
        page, console = open_page(context, path, ready)
        if path.startswith("/play/"):
            page.click("#start")
            page.wait_for_function(WAIT_FOR_TURN, timeout=30000)
            for part in ["#my-view .centre", "#my-view .my-hand"]:
                boxes = inside_viewport(page, part, 844)
                check(boxes and all(b["ok"] for b in boxes), f"{path} at 390x844: {part} not on the first screen: {boxes}")
        wide = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        check(wide[0] <= wide[1], f"{path} at 390x844 scrolls sideways: {wide[0]} > {wide[1]}")
        console.assert_clean(f"{path} at 390x844")
        page.close()
    context.close()
    api_delete(f"/v1/matches/{live_id}")
    print(f"ok: {len(pages)} pages at 390x844 without sideways scrolling")


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
            live_clock_and_fair_deal(context)
            play(context, "twenty_two", config["screenshots"] + "/play.png")
            shared_table(browser)
            rated_table_of_friends(browser)
            lobby_lists_then_drops(context)
            every_family_at_the_table(context)
            keyboard_game(browser)
            phone_game(browser)
            no_sideways_scroll(browser)
        finally:
            browser.close()
    print("all browser checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
