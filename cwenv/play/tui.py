"""The terminal game: map, fighters, narration, and menus of legal choices (rich)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cwenv.battlemap.grid import Terrain
from cwenv.engine.actions import Action, DecisionKind
from cwenv.engine.narration import narrate
from cwenv.engine.state import Combat, IllegalActionError
from cwenv.model.types import Condition, Side
from cwenv.play.menu import label, split_menu
from cwenv.play.session import PlaySession
from cwenv.yamlio import ConfigError

SIDE_STYLE = {Side.RUNNER: "bold cyan", Side.GEGNER: "bold red", Side.NEUTRAL: "bold yellow"}
TERRAIN_GLYPH = {
    Terrain.FLOOR: (".", "grey50"),
    Terrain.WALL: ("#", "white"),
    Terrain.COVER_HALF: ("=", "yellow"),
    Terrain.COVER_THREE_QUARTER: ("%", "dark_orange"),
    Terrain.WATER: ("~", "blue"),
    Terrain.CLIMB: ("H", "magenta"),
    Terrain.DOOR_CLOSED: ("+", "green"),
    Terrain.DOOR_OPEN: ("/", "green"),
    Terrain.FIRE: ("*", "red"),
}
HELP = (
    "Befehle: Nummer = Wahl · b X Y = bewegen · sb X Y = schwierige Bewegung · "
    "z X Y = zerren · u = rückgängig · s DATEI = speichern · k = Karte · q = aufgeben"
)


def fighter_mark(idx: int) -> str:
    return "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[idx % 36]


def render_map(c: Combat) -> Text:
    bm = c.bm
    text = Text()
    text.append("   " + "".join(str(x % 10) for x in range(bm.width)) + "\n", style="grey42")
    for y in range(bm.height):
        text.append(f"{y:2d} ", style="grey42")
        for x in range(bm.width):
            cell = y * bm.width + x
            idx = c.occupant.get(cell)
            if idx is not None:
                f = c.fighters[idx]
                style = "dim" if f.down else SIDE_STYLE[f.side]
                text.append(fighter_mark(idx), style=style)
                continue
            terrain = bm.terrain[cell]
            if terrain in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN):
                terrain = Terrain.DOOR_OPEN if c.door_open(cell) else Terrain.DOOR_CLOSED
            glyph, style = TERRAIN_GLYPH[terrain]
            text.append(glyph, style=style)
        text.append("\n")
    return text


def status_table(c: Combat) -> Table:
    table = Table(show_edge=False, pad_edge=False)
    for col in ("", "Name", "LP", "Reak.", "Mumm", "Zustände"):
        table.add_column(col)
    for f in c.fighters:
        conds = [cond.label for cond in Condition if f.has(cond)]
        conds += [f"zehrend ({k})" for k in f.zehrend]
        status = "tot" if f.dead else ("kampfunfähig" if f.down else "")
        table.add_row(
            Text(fighter_mark(f.idx), style=SIDE_STYLE[f.side]),
            f.name,
            f"{f.lp}/{f.spec.lp}",
            str(f.reactions),
            f"{f.mumm}/{f.mumm_max}",
            ", ".join(filter(None, [status, *conds])),
        )
    return table


class TerminalGame:
    """Runs a :class:`PlaySession` in a terminal: ``read`` asks the human for a line."""

    def __init__(self, session: PlaySession, console: Console, read: Callable[[str], str]):
        self.session = session
        self.console = console
        self.read = read
        self.shown = 0

    def narrate_new(self) -> None:
        c = self.session.combat
        names = c.game.names
        for event in c.events[self.shown :]:
            self.console.print(narrate(event, names), markup=False, highlight=False)
        self.shown = len(c.events)

    def run(self) -> None:
        s = self.session
        self.console.print(render_map(s.combat))
        while not s.combat.is_terminal():
            if s.human_to_move():
                self.narrate_new()
                if not self.human_decision():
                    self.console.print("Partie abgebrochen.")
                    return
            else:
                s.agent_step()
        self.narrate_new()
        outcome = s.combat.outcome
        assert outcome is not None
        winner = outcome.winner.label if outcome.winner is not None else "Unentschieden"
        self.console.print(f"ERGEBNIS: {winner} nach {outcome.rounds} Runden ({outcome.reason})")

    def human_decision(self) -> bool:
        """Ask until one legal choice is made; False when the player gives up."""
        c = self.session.combat
        d = c.decision
        assert d is not None
        me = c.fighters[d.fighter]
        legal = c.legal_actions()
        numbered, cells = split_menu(legal)
        head = f"{me.name} — {d.kind.label}"
        if d.kind is DecisionKind.TURN:
            head += f" (LP {me.lp}/{me.spec.lp}, Reaktionen {me.reactions}, Mumm {me.mumm})"
        self.console.print(head, style="bold")
        for i, action in enumerate(numbered, 1):
            self.console.print(f"  {i}) {label(c, action)}", markup=False, highlight=False)
        if cells:
            self.console.print(f"  Bewegung: {len(cells)} erreichbare Felder (b X Y)", markup=False)
        while True:
            line = self.read("> ").strip()
            result = self.command(line, numbered, cells)
            if result is None:
                continue
            return result

    def command(self, line: str, numbered: list[Action], cells: list[Action]) -> bool | None:
        """Carry out one input line; None means ask again."""
        s = self.session
        words = line.split()
        if not words:
            return None
        head = words[0].lower()
        if head == "q":
            return False
        if head == "k":
            self.console.print(render_map(s.combat))
            self.console.print(status_table(s.combat))
            return None
        if head == "u":
            if s.undo():
                self.shown = len(s.combat.events)
                self.console.print("Letzte Entscheidung zurückgenommen.")
                return True
            self.console.print("Nichts zum Zurücknehmen.")
            return None
        if head == "s" and len(words) == 2:
            s.save(Path(words[1]))
            self.console.print(f"Gespeichert: {words[1]}")
            return None
        if head in ("b", "sb", "z") and len(words) == 3:
            return self._cell_choice(head, words, cells)
        if head.isdigit() and 1 <= int(head) <= len(numbered):
            return self._apply(numbered[int(head) - 1])
        self.console.print(HELP)
        return None

    def _cell_choice(self, head: str, words: list[str], cells: list[Action]) -> bool | None:
        from cwenv.engine.actions import ActionKind

        kind = {"b": ActionKind.MOVE, "sb": ActionKind.SCHWIERIG, "z": ActionKind.DRAG_TO}[head]
        try:
            x, y = int(words[1]), int(words[2])
            cell = self.session.combat.bm.index(x, y)
        except ValueError:
            self.console.print("Feld nicht auf der Karte.")
            return None
        for action in cells:
            if action.kind is kind and action.cell == cell:
                return self._apply(action)
        self.console.print("Dieses Feld ist nicht erreichbar.")
        return None

    def _apply(self, action: Action) -> bool | None:
        try:
            self.session.human_step(action)
        except (IllegalActionError, ConfigError) as exc:
            self.console.print(f"Nicht möglich: {exc}")
            return None
        return True
