"""The JSON the browser view needs (#17 section 2): a fighter's focus (reachable cells,
line of sight, hit chances) agrees with the engine's legal actions and exact odds, the
board names the turn order, and a stored tournament game is replayed step by step to the
result the database recorded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cwenv.battlemap.los import has_line_of_sight
from cwenv.cli.main import app as cli
from cwenv.cli.serve import agent_maker
from cwenv.engine.actions import ActionKind
from cwenv.engine.preview import preview_attack
from cwenv.play.savefile import DiceMode
from cwenv.runner.games import GameFilter, list_games
from cwenv.service import origins
from cwenv.service.app import create_app
from cwenv.service.bodies import Settings

BASE = "http://127.0.0.1:8765"


def tournament_db(path: Path) -> Path:
    """Two duels (greedy against random, both sides) recorded by ``cwenv tournament``."""
    db = path / "turnier.sqlite"
    args = ["tournament", "--agents", "greedy,random", "--scenarios", "duell", "--games", "1"]
    result = CliRunner().invoke(cli, [*args, "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture(scope="module")
def games_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tournament_db(tmp_path_factory.mktemp("games"))


@pytest.fixture
def client(games_db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(games=games_db), agent_maker), base_url=BASE) as c:
        yield c


def test_the_focus_of_the_deciding_fighter_is_its_legal_moves_sight_and_exact_odds(
    client: TestClient,
) -> None:
    fight = client.post("/v1/fights", json={"scenario": "duell", "seed": 1}).json()
    who = fight["decision"]["fighter"]
    focus = client.get(f"/v1/fights/{fight['id']}/fighters/{who}/focus").json()
    combat = origins.start_from_scenario("duell", None, 1, DiceMode.SEEDED).build(None)
    legal = combat.legal_actions()
    free = {a.cell for a in legal if a.kind is ActionKind.MOVE}
    hard = {a.cell for a in legal if a.kind is ActionKind.SCHWIERIG} - free
    shown = {c["index"]: c["difficult"] for c in focus["reachable"]}
    assert focus["own_turn"] and shown == dict.fromkeys(free, False) | dict.fromkeys(hard, True)
    me = combat.fighters[who]
    sight = {c["index"] for c in focus["sight"]}
    assert sight and all(has_line_of_sight(combat.bm, combat.opaque, me.pos, c) for c in sight)
    for target in focus["targets"]:
        attacks = [
            a for a in legal if a.kind is ActionKind.ATTACK and a.target == target["fighter"]
        ]
        best = max((p.hit for a in attacks if (p := preview_attack(combat, a))), default=None)
        assert (target["attack"] or {}).get("hit") == best


def test_another_fighter_s_focus_has_sight_but_no_moves_and_bad_fighters_name_the_field(
    client: TestClient,
) -> None:
    fight = client.post("/v1/fights", json={"scenario": "feuergefecht", "seed": 3}).json()
    other = next(f["index"] for f in fight["fighters"] if f["side"] == "RUNNER")
    focus = client.get(f"/v1/fights/{fight['id']}/fighters/{other}/focus").json()
    assert not focus["own_turn"] and focus["reachable"] == [] and focus["sight"]
    assert {t["fighter"] for t in focus["targets"]} == {4, 5, 6, 7}
    r = client.get(f"/v1/fights/{fight['id']}/fighters/99/focus")
    assert r.status_code == 422 and r.json()["issues"][0]["field"] == "fighter"


def test_the_board_letters_the_fighters_and_names_the_turn_order(client: TestClient) -> None:
    fight = client.post("/v1/fights", json={"scenario": "feuergefecht", "seed": 3}).json()
    board = client.get(f"/v1/fights/{fight['id']}/board").json()
    assert board["markers"] == ["A", "B", "C", "D", "a", "b", "c", "d"]
    assert board["order"]["now"] == board["decision"]["fighter"]
    assert board["decision_label"] == "Zug" and board["legal_actions"]


def test_a_stored_game_is_listed_and_replayed_step_by_step_to_its_recorded_end(
    client: TestClient, games_db: Path
) -> None:
    listed = client.get("/v1/games").json()
    stored = list_games(games_db, GameFilter()).rows
    assert [g["game_id"] for g in listed["games"]] == [row.game_id for row in stored]
    row = stored[0]
    replay = client.get(f"/v1/games/{row.game_id[:8]}/replay").json()
    assert replay["matches"] is True and replay["game_id"] == row.game_id
    frames = replay["frames"]
    assert frames[0]["taken"] is None and [f["step"] for f in frames] == list(range(len(frames)))
    assert frames[-1]["state"]["outcome"]["reason"] == row.reason
    assert replay["outcome"]["rounds"] == row.rounds
    assert any(f["lines"] for f in frames), "a duel to the end has attacks to draw"
    hit = next(f for f in frames if any(line["hit"] for line in f["lines"]))
    assert any(e["type"] == "Hit" for e in hit["events"])
    r = client.get("/v1/games/kein-spiel/replay")
    assert r.status_code == 404 and r.json()["issues"][0]["field"] == "game_id"


def test_without_a_games_database_the_page_is_told_how_to_give_one() -> None:
    with TestClient(create_app(Settings(), agent_maker), base_url=BASE) as c:
        r = c.get("/v1/games")
        assert r.status_code == 409 and "--games" in r.json()["message"]
        assert c.get("/", follow_redirects=False).headers["location"] == "/ui/"
        page = c.get("/ui/")
        assert page.status_code == 200 and 'id="map"' in page.text


def test_the_page_is_public_but_the_api_keeps_its_token() -> None:
    settings = Settings(host="0.0.0.0", token="s3cret")
    with TestClient(create_app(settings, agent_maker), base_url="http://10.0.0.2:8765") as c:
        assert c.get("/ui/").status_code == 200 and c.get("/ui/app.js").status_code == 200
        assert c.get("/v1/games").status_code == 401
