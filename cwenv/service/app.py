"""``cwenv serve``'s HTTP API (FastAPI): fights created, read, advised, played and undone.

Every route is thin: it validates, takes the fight under its lock (:mod:`.store`), calls
the fight (:mod:`.fights`) or the advisor (:func:`cwenv.play.advise.advise`, the one
answer to "what would this NSC do?") and writes JSON (:mod:`.wire`). Advice is worked out
on a copy of the fight outside its lock, so a search does not hold up other clients of the
same fight; applying "the agent's proposal" checks that the fight has not moved on since.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from cwenv import __version__
from cwenv.agent import Agent
from cwenv.agent_registry import UnknownAgentError, describe_agents, known_specs
from cwenv.engine.actions import Action
from cwenv.engine.game import Game
from cwenv.engine.state import Combat
from cwenv.play.advise import Advice, BudgetError, budgeted
from cwenv.play.savefile import DiceMode, SavedGame
from cwenv.service import origins, web
from cwenv.service.bodies import ActBody, CreateFight, DiceBody, Settings, UndoBody
from cwenv.service.errors import Issue, ServiceError, bad_field
from cwenv.service.fights import Fight, StepResult, advice_for
from cwenv.service.responses import About, AdviceOut, AgentRow, ErrorOut, EventsPage, FightRow
from cwenv.service.responses_fight import ResultOut, StateOut
from cwenv.service.security import Gate, GateMiddleware
from cwenv.service.store import Registry, Store
from cwenv.service.wire import action_json, action_of, advice_json, combat_json, event_json
from cwenv.yamlio import ConfigError

AgentMaker = Callable[[str, Game], Agent]
"""Builds the agent of a spec for a game (``cwenv serve`` passes one that also checks the
agent can play it); raises UnknownAgentError or ConfigError."""


def allowed_agents() -> list[str]:
    """The agents a client may name: the registered names and listed specs, never a path
    of the client's choosing."""
    return sorted({*known_specs(), *(spec for spec, _ in describe_agents())})


def state_json(fight: Fight, with_legal: bool = True) -> dict[str, Any]:
    """The fight as the client sees it; the combat's parts are absent while its setup waits
    for the table's first dice."""
    pending = fight.pending
    out: dict[str, Any] = {
        "id": fight.id,
        "origin": fight.kind.value,
        "dice": fight.setup.dice.value,
        "step": fight.step_count,
        "waiting_for_die": None
        if pending is None
        else {
            "for": pending.wants,
            "sent": len(pending.dice),
            "action": None if pending.action is None else action_json(pending.action),
        },
    }
    if fight.combat is not None:
        out |= combat_json(fight.combat, with_legal)
    return out


def _result_json(fight: Fight, result: StepResult) -> dict[str, Any]:
    combat = fight.combat
    events = combat.events[result.first_event :] if combat is not None else []
    names = list(combat.game.names) if combat is not None else []
    return {
        "action": None if result.action is None else action_json(result.action),
        "events": [event_json(e, names) for e in events],
        "needs_die": None if result.needs_die is None else result.needs_die.wants,
        "needs_die_purpose": None if result.needs_die is None else result.needs_die.purpose,
        "unused_dice": result.unused_dice,
        "state": state_json(fight),
    }


def _issues_of(exc: RequestValidationError) -> list[Issue]:
    issues = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        if loc and loc[0] in ("body", "query", "path"):
            loc = loc[1:]
        expected = (err.get("ctx") or {}).get("expected")
        allowed = tuple(re.findall(r"'([^']*)'", str(expected))) if expected else ()
        issues.append(Issue(".".join(loc) or "body", str(err.get("msg", "invalid")), None, allowed))
    return issues


def create_app(settings: Settings, make_agent: AgentMaker) -> FastAPI:
    """The service with its own fights (in ``settings.db``, or in memory)."""
    store = Store(settings.db if settings.db is not None else ":memory:")
    registry = Registry(store, settings.max_fights)
    api = FastAPI(
        title="cwenv serve",
        version=__version__,
        description="The NSC brain of cwenv as a local service (docs/service.md).",
        responses={
            "4XX": {"model": ErrorOut, "description": "Refused; each issue names its field."}
        },
    )
    api.openapi = lambda: _with_token_scheme(api, settings.token)  # type: ignore[method-assign]
    api.state.registry = registry

    @api.exception_handler(ServiceError)
    async def _service_error(_: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(exc.as_json(), status_code=exc.status)

    @api.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        issues = _issues_of(exc)
        message = "; ".join(f"{i.field}: {i.message}" for i in issues)
        return JSONResponse(
            ServiceError(422, "invalid_request", message, issues).as_json(), status_code=422
        )

    @api.exception_handler(HTTPException)
    async def _http(_: Request, exc: HTTPException) -> JSONResponse:
        error = ServiceError(exc.status_code, "http_error", str(exc.detail))
        return JSONResponse(error.as_json(), status_code=exc.status_code)

    def agent_for(spec: str, game: Game, field: str = "agent") -> Agent:
        known = allowed_agents()
        if spec not in known:
            raise bad_field(field, f"unknown agent {spec!r}", known)
        try:
            return make_agent(spec, game)
        except (UnknownAgentError, ConfigError) as exc:
            raise bad_field(field, str(exc), known) from None

    @api.get("/v1", tags=["service"], response_model=About)
    def about() -> dict[str, Any]:
        """The service: its version, what a fight can be made of, and its limits."""
        return {
            "service": "cwenv",
            "version": __version__,
            "scenarios": origins.shipped_scenarios(),
            "rules": origins.shipped_rules(),
            "agents": allowed_agents(),
            "limits": {"max_fights": settings.max_fights, "max_body": settings.max_body},
        }

    @api.get("/v1/agents", tags=["service"], response_model=list[AgentRow])
    def agents() -> list[dict[str, str]]:
        """The agents a client can ask, with a one-line German description."""
        return [{"agent": spec, "description": text} for spec, text in describe_agents()]

    state_answer: dict[str, Any] = {
        "response_model": StateOut,
        "response_model_exclude_unset": True,
    }
    result_answer: dict[str, Any] = {
        "response_model": ResultOut,
        "response_model_exclude_unset": True,
    }

    @api.post("/v1/fights", status_code=201, tags=["fights"], **state_answer)
    def create(body: CreateFight) -> dict[str, Any]:
        """Create a fight from exactly one of: a shipped scenario, a scenario file, a
        situation, a save."""
        given = [
            name
            for name in ("scenario", "scenario_file", "situation", "save")
            if getattr(body, name) is not None
        ]
        if len(given) != 1:
            choices = ("scenario", "scenario_file", "situation", "save")
            what = "none" if not given else " and ".join(given)
            raise bad_field(
                given[1] if given else "scenario", f"give exactly one; got {what}", choices
            )
        dice = DiceMode(body.dice)
        kind, text = origins.OriginKind(given[0]), None
        if body.scenario is not None:
            start = origins.start_from_scenario(body.scenario, body.rules, body.seed, dice)
        elif body.scenario_file is not None:
            text = origins.text_of(body.scenario_file)
            start = origins.start_from_upload(text, body.rules, body.seed, dice)
        elif body.situation is not None:
            text = origins.text_of(body.situation)
            start = origins.start_from_situation(text, dice)
        else:
            text = origins.text_of(body.save if body.save is not None else "")
            start, _ = origins.start_from_save(text)
        fight_id = registry.reserve()
        try:
            fight = Fight(fight_id, kind, text, start)
            registry.add(fight)
        except BaseException:
            registry.release(fight_id)
            raise
        return state_json(fight)

    @api.get("/v1/fights", tags=["fights"], response_model=list[FightRow])
    def list_fights() -> list[dict[str, Any]]:
        """Every fight the service holds, by id, with its scenario and step."""
        out = []
        for fight_id in registry.ids():
            try:
                with registry.use(fight_id) as fight:
                    out.append(
                        {
                            "id": fight.id,
                            "scenario": fight.setup.scenario,
                            "step": fight.step_count,
                            "over": _over(fight),
                        }
                    )
            except ServiceError:  # deleted meanwhile
                continue
        return out

    @api.get("/v1/fights/{fight_id}", tags=["fights"], **state_answer)
    def get_state(
        fight_id: str,
        legal: bool = Query(True, description="Include the legal actions with their odds."),
    ) -> dict[str, Any]:
        """The map, the fighters, whose decision it is, the legal actions with exact odds."""
        with registry.use(fight_id) as fight:
            return state_json(fight, legal)

    @api.delete("/v1/fights/{fight_id}", status_code=204, tags=["fights"])
    def delete(fight_id: str) -> None:
        registry.delete(fight_id)

    @api.get("/v1/fights/{fight_id}/save", tags=["fights"], response_model=SavedGame)
    def save(fight_id: str) -> SavedGame:
        """The fight as a ``cwenv play`` save (``--load`` reads it for a shipped scenario)."""
        with registry.use(fight_id) as fight:
            return fight.saved()

    @api.get("/v1/fights/{fight_id}/events", tags=["fights"], response_model=EventsPage)
    def events(fight_id: str, since: int = Query(0, ge=0)) -> dict[str, Any]:
        """The event log from ``since`` on, as data and as German narration."""
        with registry.use(fight_id) as fight:
            combat = fight.live()
            names = list(combat.game.names)
            log = [event_json(e, names) for e in combat.events[since:]]
            return {"since": since, "count": len(combat.events), "events": log}

    def _advice(
        fight_id: str, spec: str, top: int, budget: int | None
    ) -> tuple[Combat, int, Advice]:
        """The advisor on a copy of the fight (outside its lock) and the step it is for;
        ``budget`` is ``cwenv advise --budget`` (None: the agent's own, no wall clock)."""
        if budget is not None and not 1 <= budget <= settings.max_budget:
            raise bad_field(
                "budget",
                f"allowed: 1–{settings.max_budget} search iterations or rollouts "
                "(cwenv serve --max-budget)",
            )
        with registry.use(fight_id) as fight:
            if fight.pending is not None:
                raise ServiceError(409, "needs_die", "a step waits for a W10: POST …/dice")
            copy, seed, step = fight.snapshot(), fight.setup.seed, fight.step_count
        try:
            agent = budgeted(agent_for(spec, copy.game), budget)
        except BudgetError as exc:
            raise bad_field("budget", str(exc)) from None
        return copy, step, advice_for(copy, agent, top, seed)

    @api.get("/v1/fights/{fight_id}/advice", tags=["agents"], response_model=AdviceOut)
    def advice(
        fight_id: str,
        agent: str = Query("greedy", max_length=200, description="An agent of GET /v1/agents."),
        top: int = Query(3, ge=1, le=settings.max_top),
        budget: int | None = Query(
            None,
            ge=1,
            le=settings.max_budget,
            description="A search agent's budget (MCTS iterations, lookahead rollouts), as "
            "cwenv advise --budget; an agent that does not search refuses it.",
        ),
    ) -> dict[str, Any]:
        """What would this NSC do? The agent's action, its score, the alternatives, why."""
        copy, step, found = _advice(fight_id, agent, top, budget)
        return advice_json(copy, agent, found) | {"step": step}

    @api.post("/v1/fights/{fight_id}/actions", tags=["fights"], **result_answer)
    def act(fight_id: str, body: ActBody) -> dict[str, Any]:
        """Carry out an action (the GM's choice or the agent's proposal); the events come
        back as data and as narration."""
        given = [n for n in ("action", "action_id", "agent") if getattr(body, n) is not None]
        if len(given) != 1:
            raise bad_field(
                given[1] if given else "action",
                "give exactly one of action, action_id, agent",
                ("action", "action_id", "agent"),
            )
        if body.budget is not None and body.agent is None:
            raise bad_field("budget", "a budget goes with agent (its proposal's search)")
        proposal: Action | None = None
        if body.agent is not None:
            if body.expect_step is not None:  # refuse a stale request before any search
                with registry.use(fight_id) as fight:
                    fight.check_step(body.expect_step)
            _, step_then, found = _advice(fight_id, body.agent, 1, body.budget)
            proposal = found.recommended.action
        with registry.use(fight_id) as fight:
            fight.check_step(body.expect_step)
            if proposal is not None:
                fight.check_step(step_then)  # another client acted while the agent thought
                chosen = proposal
            elif body.action is not None:
                chosen = action_of(body.action)
            else:
                chosen = _by_id(fight, body.action_id or 0)
            return _result_json(fight, fight.apply(chosen, body.dice, given[0]))

    @api.post("/v1/fights/{fight_id}/dice", tags=["fights"], **result_answer)
    def dice(fight_id: str, body: DiceBody) -> dict[str, Any]:
        """The W10s the table rolled for the step that waits for them."""
        with registry.use(fight_id) as fight:
            return _result_json(fight, fight.supply(body.dice))

    @api.post("/v1/fights/{fight_id}/undo", tags=["fights"], **state_answer)
    def undo(fight_id: str, body: UndoBody | None = None) -> dict[str, Any]:
        """Take back the step waiting for dice, or else the last decision."""
        with registry.use(fight_id) as fight:
            fight.check_step(body.expect_step if body is not None else None)
            if not fight.undo():
                raise ServiceError(409, "nothing_to_undo", "no decision has been taken yet")
            return state_json(fight)

    web.register(api, registry, settings, state_json)
    api.add_middleware(
        GateMiddleware,
        gate=Gate(
            host=settings.host,
            token=settings.token,
            origins=settings.origins,
            allowed_hosts=settings.allowed_hosts,
            max_body=settings.max_body,
            open_paths=Gate().open_paths | web.open_paths(),
        ),
    )
    return api


TOKEN_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "cwenv serve --token TOKEN: then every /v1 request sends it.",
}


def _with_token_scheme(api: FastAPI, token: str | None) -> dict[str, Any]:
    """The OpenAPI document with the gate's token (:mod:`.security`, not a route's
    dependency) as a bearer scheme, required on every operation when one is set."""
    if api.openapi_schema is None:
        doc = get_openapi(
            title=api.title,
            version=api.version,
            description=api.description,
            routes=api.routes,
        )
        doc.setdefault("components", {})["securitySchemes"] = {"token": TOKEN_SCHEME}
        if token is not None:
            doc["security"] = [{"token": []}]
        api.openapi_schema = doc
    return api.openapi_schema


def _by_id(fight: Fight, action_id: int) -> Action:
    legal = fight.live().legal_actions()
    if action_id >= len(legal):
        raise bad_field(
            "action_id", f"there are {len(legal)} legal actions (ids 0–{len(legal) - 1})"
        )
    return legal[action_id]


def _over(fight: Fight) -> bool:
    return fight.combat is not None and fight.combat.is_terminal()
