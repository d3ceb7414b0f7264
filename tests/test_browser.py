"""The browser view of ``cwenv serve`` in a real browser (#17 section 2): Debian's headless
chromium driven by Playwright against the service on a loopback port. Play the Runners of
feuergefecht (reachable cells and hit chances on the SVG map, a move and an attack through
the menu, a reaction prompt, undo), confirm an NSC's proposal in GM mode, and watch a
stored tournament game forward and back; the NSC side (override a proposal, ask with a search
budget) and dice from the table, asked by what they are for and clicked or typed.
Assertions read the DOM and the SVG; the screenshots go to docs/img/ for docs/browser.md and
are never compared."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from cwenv.cli.serve import agent_maker
from cwenv.service.app import create_app
from cwenv.service.bodies import Settings
from tests.test_browser_api import tournament_db

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "img"
WAIT = 60_000  # ms: an agent's answer on a busy two-core machine
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and shutil.which("chromium") is None,
    reason="Debian's chromium is not installed (.ci/run installs it)",
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tournament_db(tmp_path_factory.mktemp("games"))
    app = create_app(Settings(games=db), agent_maker)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def open_page(page: Any, live: str, mode: str) -> None:
    page.goto(f"{live}/ui/?mode={mode}")
    page.wait_for_selector("body[data-ready=true]")


def start_fight(page: Any, agent: str = "greedy", seed: int = 9) -> str:
    """A feuergefecht fight in which the NSCs move first: seed 9 is the first from 0 whose
    first decision is a GEGNER turn under the PCG32 dice of issue #16 (3 before)."""
    page.select_option("#scenario", "feuergefecht")
    page.fill("#seed", str(seed))
    page.select_option("#agent", agent)
    page.click("#start")
    page.wait_for_function("location.search.includes('fight=')")
    return str(page.evaluate("new URLSearchParams(location.search).get('fight')"))


def settled(page: Any) -> None:
    page.wait_for_selector("body[data-busy=false]", timeout=WAIT)


def board(live: str, fight: str) -> dict[str, Any]:
    return httpx.get(f"{live}/v1/fights/{fight}/board", timeout=60).json()


def test_play_the_runners_of_feuergefecht(page: Any, live: str) -> None:
    open_page(page, live, "play")
    fight = start_fight(page)
    settled(page)
    state = board(live, fight)
    decider = state["decision"]
    assert decider["side"] == "RUNNER" and decider["kind"] == "TURN"  # the NSCs have moved
    assert decider["name"] in page.text_content("#decision")

    # Clicking the Runner shows its reachable cells, its line of sight and the hit chances.
    page.click(f"g.fighter[data-index='{decider['fighter']}']")
    page.wait_for_selector("rect.reach")
    moves = {a["action"]["cell"] for a in state["legal_actions"] if a["action"]["kind"] == "MOVE"}
    free = page.locator("rect.reach[data-kind=free]")
    assert free.count() == len(moves) > 0
    assert page.locator("circle.sight").count() > 0
    enemies = [f for f in state["fighters"] if f["side"] == "GEGNER" and not f["dead"]]
    assert page.locator("text.hit-chance").count() == len(enemies)
    page.screenshot(path=str(SHOTS / "browser-play.png"))

    # A turn through the menu: greedy's move (in the move list), then its attack.
    moved = attacked = False
    prompt_answered = False
    for _ in range(60):
        settled(page)
        state = board(live, fight)
        d = state["decision"]
        if state["outcome"] is not None:
            break
        if d["kind"] != "TURN":  # a reaction or Mumm prompt of a Runner
            assert page.locator("#prompt").is_visible()
            assert d["name"] in page.text_content("#prompt")
            about = d["about"] or {}
            attack = about.get("attack") or (about.get("check") or {}).get("attack")
            if attack:  # the prompt says which attack it answers
                attacker = state["fighters"][attack["attacker"]]["name"]
                assert attacker in page.text_content("#prompt .about")
            before = state["step"]
            page.locator("#prompt button.action").first.click()
            settled(page)
            assert board(live, fight)["step"] > before
            prompt_answered = True
            if moved and attacked:
                break
            continue
        advice = httpx.get(f"{live}/v1/fights/{fight}/advice?agent=greedy", timeout=60).json()
        chosen = advice["recommended"]
        kind = chosen["action"]["kind"]
        if kind in ("MOVE", "SCHWIERIG"):
            page.select_option("#move-select", str(chosen["id"]))
            page.click("#move-go")
            moved = True
        else:
            button = page.locator(f"#menu button.action[data-id='{chosen['id']}']")
            if kind == "ATTACK" and moved and not attacked:
                assert "Treffer" in button.text_content()  # the menu shows the odds
                attacked = True
            button.click()
        if prompt_answered and moved and attacked:
            break
    assert moved and attacked and prompt_answered
    narrated = page.locator("#narration li").count()
    assert narrated > 0 and page.locator("#fighters tr").count() == len(state["fighters"]) + 1

    # Undo goes back to before the Runners' last decision.
    step = board(live, fight)["step"]
    page.click("#undo")
    settled(page)
    assert board(live, fight)["step"] < step
    assert "zurück bei Schritt" in page.text_content("#status")


def test_gm_mode_shows_the_nsc_proposal_with_its_reason_and_accepts_it(
    page: Any, live: str
) -> None:
    open_page(page, live, "gm")
    fight = start_fight(page, agent="taktiker")
    page.wait_for_selector("#proposal:not([hidden])", timeout=WAIT)
    settled(page)
    state = board(live, fight)
    assert state["decision"]["side"] == "GEGNER" and state["step"] == 0
    advice = httpx.get(f"{live}/v1/fights/{fight}/advice?agent=taktiker&top=4", timeout=60).json()
    assert advice["recommended"]["label"] in page.text_content("#proposal-label")
    assert page.locator("#map .proposal").count() >= 1  # drawn on the map
    assert page.locator("#alternatives button.alt").count() >= 1
    assert page.locator("#override").is_visible()
    page.screenshot(path=str(SHOTS / "browser-gm.png"))
    page.click("#accept")
    page.wait_for_function(
        f"fetch('/v1/fights/{fight}').then(r => r.json()).then(s => s.step >= 1)", timeout=WAIT
    )
    settled(page)
    saved = httpx.get(f"{live}/v1/fights/{fight}/save", timeout=60).json()
    first = saved["actions"][0]
    assert first["kind"] == advice["recommended"]["action"]["kind"]
    assert first["actor"] == advice["recommended"]["action"]["actor"]


def test_watch_a_stored_tournament_game_forward_and_back(page: Any, live: str) -> None:
    open_page(page, live, "watch")
    games = page.locator("#games button.game")
    games.first.wait_for()
    assert games.count() == 2
    listed = httpx.get(f"{live}/v1/games", timeout=60).json()["games"]
    games.first.click()
    page.wait_for_function(
        "document.querySelector('#step-label').textContent.startsWith('Schritt 0 /')"
    )
    total = len(
        httpx.get(f"{live}/v1/games/{listed[0]['game_id']}/replay", timeout=60).json()["frames"]
    )
    assert f"/ {total - 1}" in page.text_content("#step-label")
    lines_seen, shot = 0, False
    for step in range(1, total):
        page.click("#step-fwd")
        assert page.text_content("#step-label").startswith(f"Schritt {step} /")
        hits = page.locator("#map line.attack-line[data-hit=true]").count()
        if hits and not shot:  # the docs show the first hit
            page.screenshot(path=str(SHOTS / "browser-watch.png"))
            shot = True
        lines_seen += page.locator("#map line.attack-line").count()
    assert lines_seen > 0 and shot and "Kampf vorbei" in page.text_content("#decision")
    told = page.locator("#narration li").count()
    page.click("#step-back")
    assert page.text_content("#step-label").startswith(f"Schritt {total - 2} /")
    assert page.locator("#narration li").count() < told
    page.keyboard.press("ArrowLeft")  # the keyboard steps too
    assert page.text_content("#step-label").startswith(f"Schritt {total - 3} /")
    page.keyboard.press("ArrowRight")
    assert page.text_content("#step-label").startswith(f"Schritt {total - 2} /")


def test_watch_a_live_fight_between_agents_and_play_by_keyboard(page: Any, live: str) -> None:
    open_page(page, live, "watch")
    page.select_option("#runner-agent", "greedy")
    start_fight(page, agent="greedy")
    settled(page)
    page.click("#step-fwd")
    settled(page)
    assert page.text_content("#step-label").startswith("Schritt 1 /")
    page.click("#step-back")
    assert page.text_content("#step-label").startswith("Schritt 0 /")
    # Play by keyboard: a fighter on the map takes the focus and Enter selects it.
    open_page(page, live, "play")
    start_fight(page)
    settled(page)
    page.locator("g.fighter[data-side=RUNNER]").first.focus()
    page.keyboard.press("Enter")
    settled(page)
    assert page.locator("g.fighter.selected").count() == 1
    assert page.locator("circle.sight").count() > 0


def proposal_shown(page: Any) -> None:
    page.wait_for_selector("#proposal:not([hidden])", timeout=WAIT)
    settled(page)


def test_gm_overrides_the_nsc_proposal_with_another_legal_action(page: Any, live: str) -> None:
    open_page(page, live, "gm")
    fight = start_fight(page, agent="taktiker")
    proposal_shown(page)
    state = board(live, fight)
    nsc = state["decision"]["fighter"]
    advice = httpx.get(f"{live}/v1/fights/{fight}/advice?agent=taktiker&top=4", timeout=60).json()
    page.click("#override")
    buttons = page.locator("#menu button.action")
    buttons.first.wait_for()
    ids = [int(b.get_attribute("data-id")) for b in buttons.all()]
    chosen = next(i for i in ids if i != advice["recommended"]["id"])  # not the proposal
    page.click(f"#menu button.action[data-id='{chosen}']")
    page.wait_for_function(
        f"fetch('/v1/fights/{fight}').then(r => r.json()).then(s => s.step >= 1)", timeout=WAIT
    )
    settled(page)
    saved = httpx.get(f"{live}/v1/fights/{fight}/save", timeout=60).json()["actions"][0]
    want = state["legal_actions"][chosen]["action"]
    assert (saved["kind"], saved["actor"], saved["target"]) == (
        want["kind"],
        want["actor"],
        want["target"],
    )
    assert want["actor"] == nsc and want != advice["recommended"]["action"]


def test_gm_asks_the_nsc_with_a_search_budget(page: Any, live: str) -> None:
    open_page(page, live, "gm")
    page.fill("#budget", "6")
    fight = start_fight(page, agent="mcts")
    proposal_shown(page)
    advice = httpx.get(
        f"{live}/v1/fights/{fight}/advice?agent=mcts&top=4&budget=6", timeout=120
    ).json()
    assert advice["recommended"]["label"] in page.text_content("#proposal-label")
    shown = [advice["recommended"], *advice["alternatives"]]
    assert 0 < sum(o["visits"] for o in shown) <= 6  # the page asked with the budget


def test_table_dice_are_asked_by_purpose_and_typed_from_the_page(page: Any, live: str) -> None:
    open_page(page, live, "play")
    page.check("#table-dice")
    fight = start_fight(page)
    page.wait_for_selector("#dice:not([hidden])", timeout=WAIT)
    assert page.text_content("#die-for").startswith("Initiative ")
    assert "W10 1 von" in page.text_content("#die-for")
    assert page.locator("#dice button.die").count() == 10
    page.screenshot(path=str(SHOTS / "browser-dice.png"))  # no map yet: the setup rolls
    sent, by_key = 0, False
    for _ in range(300):  # the initiative of eight fighters, then the NSCs' rolls
        if page.locator("#dice").is_hidden():
            break
        waiting = board(live, fight)["waiting_for_die"]
        assert waiting is not None and waiting["for"] == page.text_content("#die-for")
        if sent % 2:
            page.keyboard.press("5")  # the keyboard types a die too
            by_key = True
        else:
            page.click("#dice button.die[data-value='5']")
        sent += 1
        settled(page)
    state = board(live, fight)
    assert state["waiting_for_die"] is None and state["decision"]["side"] == "RUNNER"
    assert by_key and sent > 8
    saved = httpx.get(f"{live}/v1/fights/{fight}/save", timeout=60).json()
    assert saved["dice"] == "table" and saved["typed_dice"] == [5] * len(saved["typed_dice"])
    assert 8 <= len(saved["typed_dice"]) <= sent
    assert "5+5" in page.text_content("#narration")  # the initiative rolled with them


def test_play_the_nscs_against_a_runner_agent(page: Any, live: str) -> None:
    open_page(page, live, "play")
    page.select_option("#human-side", "GEGNER")
    assert page.text_content("#nsc-agent-label") == "Runner-Agent"
    fight = start_fight(page, agent="greedy")
    settled(page)
    state = board(live, fight)
    sides = [f["side"] for f in state["fighters"]]
    for _ in range(3):  # the NSCs' decisions by the page, the Runners' by the agent
        assert state["decision"]["side"] == "GEGNER" and state["outcome"] is None
        assert "Die NSCs sind am Zug" in page.text_content("#status")
        step = state["step"]
        if state["decision"]["kind"] == "TURN":
            page.click("#menu button.action[data-kind=END_TURN]")
        else:
            page.locator("#prompt button").first.click()
        page.wait_for_function(
            f"fetch('/v1/fights/{fight}').then(r => r.json()).then(s => s.step > {step})",
            timeout=WAIT,
        )
        settled(page)
        state = board(live, fight)
    actions = httpx.get(f"{live}/v1/fights/{fight}/save", timeout=60).json()["actions"]
    actors = {sides[a["actor"]] for a in actions}
    assert actors == {"GEGNER", "RUNNER"}  # both sides acted: the agent for the Runners
