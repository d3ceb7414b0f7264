"""The terminal game: map, fighters, narration, and menus of legal choices (rich)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cwenv.battlemap.grid import Terrain
from cwenv.engine.actions import Action, ActionKind, DecisionKind
from cwenv.engine.narration import narrate, rounds_text
from cwenv.engine.state import Combat, IllegalActionError
from cwenv.model.types import Condition, Side
from cwenv.play.menu import label, split_menu
from cwenv.play.table_game import DiceMode, PlayError, PlaySession
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
    "z X Y = zerren · u = rückgängig · s DATEI = speichern · k = Karte · q = beenden"
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


class QuitRequested(Exception):
    """The player confirmed quitting (or the input ended); unwinds out of the engine when
    it comes from a W10 prompt in the middle of a rule."""


def small_number(text: str) -> int | None:
    """``text`` as a plain decimal number, or None (``'²'.isdigit()`` is true, but int()
    refuses it)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


YES = frozenset({"j", "ja", "y", "yes", "q"})
SAVE_SUFFIXES = (".yaml", ".yml")  # the config reader refuses other names


class Prompt:
    """Lines from the player: Ctrl-C asks whether to quit, the end of input quits.

    ``read`` may raise EOFError or KeyboardInterrupt; both end in :class:`QuitRequested`
    once the player confirms (the end of input needs no confirmation: nobody can answer).
    ``resolving`` names the rule a typed W10 is for (empty while a game is being set up).
    """

    def __init__(self, console: Console, read: Callable[[str], str]) -> None:
        self.console = console
        self.read = read
        self.resolving: Callable[[], str] = str

    def ask(self, prompt: str) -> str:
        while True:
            try:
                return self.read(prompt)
            except EOFError:
                raise QuitRequested from None
            except KeyboardInterrupt:
                self.console.print()
                if self.confirm_quit():
                    raise QuitRequested from None

    def confirm_quit(self) -> bool:
        """Ask before quitting; a second Ctrl-C or the end of input means yes."""
        try:
            answer = self.read("Wirklich beenden? (j/n) ")
        except (EOFError, KeyboardInterrupt):
            return True
        return answer.strip().lower() in YES

    def ask_die(self) -> int:
        """A W10 typed at the table; asks again until it is 1 to 10."""
        what = self.resolving()
        prompt = f"W10 ({what}) > " if what else "W10 > "
        while True:
            line = self.ask(prompt).strip()
            if line.lower() == "q":
                if self.confirm_quit():
                    raise QuitRequested
                continue
            value = small_number(line)
            if value is not None and 1 <= value <= 10:
                return value
            self.console.print("Bitte einen W10 eingeben: eine ganze Zahl von 1 bis 10.")


class TerminalGame:
    """Runs a :class:`PlaySession` in a terminal: ``read`` asks the human for a line (see
    :class:`Prompt`; pass the one the session's table dice already use).

    With ``autosave`` the game is written there at every consistent point (at the start,
    after each step a human took part in, at the end), so quitting, Ctrl-C or a crash lose
    nothing: ``cwenv play --load`` of that file goes on from there.
    """

    def __init__(
        self,
        session: PlaySession,
        console: Console,
        read: Callable[[str], str],
        autosave: Path | None = None,
        prompt: Prompt | None = None,
    ):
        self.session = session
        self.console = console
        self.prompt = prompt if prompt is not None else Prompt(console, read)
        self.prompt.resolving = lambda: session.combat.resolving()
        self.ask = self.prompt.ask
        self.confirm_quit = self.prompt.confirm_quit
        self.autosave_path = autosave
        self.autosave_failed = False
        self.shown = 0
        if session.setup.dice is DiceMode.TABLE and session.ask_die is None:
            session.ask_die = self.prompt.ask_die

    # -- files --------------------------------------------------------------------------
    def autosave(self) -> None:
        path = self.autosave_path
        if path is None:
            return
        try:
            self.session.save(path)
        except OSError as exc:
            if not self.autosave_failed:  # once is enough; the game goes on regardless
                self.console.print(
                    f"Automatisches Speichern nach {path} fehlgeschlagen: {exc.strerror or exc}",
                    markup=False,
                )
            self.autosave_failed = True
        else:
            self.autosave_failed = False

    def save(self, name: str) -> None:
        path = Path(name).expanduser()
        if path.suffix not in SAVE_SUFFIXES:
            self.console.print(
                f"Nicht gespeichert: {name}: der Name muss auf .yaml enden "
                "(nur solche Dateien liest cwenv play --load).",
                markup=False,
            )
            return
        try:
            self.session.save(path)
        except OSError as exc:
            self.console.print(
                f"Nicht gespeichert: {name}: {exc.strerror or exc}. Die Partie geht weiter; "
                "bitte einen anderen Dateinamen angeben (s DATEI).",
                markup=False,
                soft_wrap=True,
            )
            return
        self.console.print(f"Gespeichert: {name}", markup=False, soft_wrap=True)

    def quit_message(self) -> None:
        self.console.print("Partie abgebrochen.")
        if self.autosave_path is not None and not self.autosave_failed:
            where = self.autosave_path
            self.console.print(
                f"Stand gespeichert in {where}; weiter mit: cwenv play --load {where}",
                markup=False,
                soft_wrap=True,  # a path to copy must not be broken across lines
            )

    # -- the game -----------------------------------------------------------------------
    def narrate_new(self) -> None:
        c = self.session.combat
        names = c.game.names
        for event in c.events[self.shown :]:
            self.console.print(narrate(event, names), markup=False, highlight=False)
        self.shown = len(c.events)

    def run(self) -> None:
        s = self.session
        # Agents alone with seeded dice replay from the seed; only a human's input (choices,
        # typed dice) is worth writing after every step.
        watched = bool(s.humans) or s.setup.dice is DiceMode.TABLE
        try:
            self.console.print(render_map(s.combat))
            self.autosave()
            while not s.combat.is_terminal():
                done = len(s.combat.history)  # a consistent point to come back to
                try:
                    self.step()
                    if watched:
                        self.autosave()
                except KeyboardInterrupt:
                    # Ctrl-C while the rules or an agent ran: the step may be half done.
                    s.restore(done)
                    self.shown = min(self.shown, len(s.combat.events))
                    self.console.print()
                    if self.confirm_quit():
                        raise QuitRequested from None
            self.autosave()
        except (QuitRequested, KeyboardInterrupt):  # Ctrl-C at a moment without a prompt
            self.quit_message()
            return
        self.narrate_new()
        outcome = s.combat.outcome
        if outcome is None:
            raise PlayError("the combat ended without a result")
        winner = outcome.winner.label if outcome.winner is not None else "Unentschieden"
        after = rounds_text(outcome.rounds)
        self.console.print(f"ERGEBNIS: {winner} nach {after} ({outcome.reason})")

    def step(self) -> None:
        """One decision: the player's (asked until legal) or an agent's."""
        s = self.session
        if s.human_to_move():
            self.narrate_new()
            self.human_decision()
        else:
            s.agent_step()

    def human_decision(self) -> None:
        """Ask until one legal choice is made (QuitRequested when the player gives up)."""
        c = self.session.combat
        d = c.decision
        if d is None:
            raise PlayError("no decision is pending")
        me = c.fighters[d.fighter]
        legal = c.legal_actions()
        numbered, cells = split_menu(legal)
        head = f"{me.name} — {d.kind.label}"
        if d.kind is DecisionKind.TURN:
            head += f" (LP {me.lp}/{me.spec.lp}, Reaktionen {me.reactions}, Mumm {me.mumm})"
        self.console.print(head, style="bold", markup=False)
        for i, action in enumerate(numbered, 1):
            self.console.print(f"  {i}) {label(c, action)}", markup=False, highlight=False)
        if cells:
            self.console.print(f"  Bewegung: {len(cells)} erreichbare Felder (b X Y)", markup=False)
        while True:
            line = self.ask("> ").strip()
            if self.command(line, numbered, cells):
                return

    def command(self, line: str, numbered: list[Action], cells: list[Action]) -> bool:
        """Carry out one input line; False means ask again."""
        s = self.session
        words = line.split()
        if not words:
            return False
        head = words[0].lower()
        if head == "q":
            if self.confirm_quit():
                raise QuitRequested
            return False
        if head == "k":
            self.console.print(render_map(s.combat))
            self.console.print(status_table(s.combat))
            return False
        if head == "u":
            if s.undo():
                self.shown = len(s.combat.events)
                self.console.print("Letzte Entscheidung zurückgenommen.")
                return True
            self.console.print("Nichts zum Zurücknehmen.")
            return False
        if head == "s" and len(words) >= 2:
            self.save(line.split(maxsplit=1)[1])
            return False
        if head in ("b", "sb", "z") and len(words) == 3:
            return self._cell_choice(head, words, cells)
        choice = small_number(head)
        if choice is not None and 1 <= choice <= len(numbered):
            return self._apply(numbered[choice - 1])
        self.console.print(HELP)
        return False

    def _cell_choice(self, head: str, words: list[str], cells: list[Action]) -> bool:
        kind = {"b": ActionKind.MOVE, "sb": ActionKind.SCHWIERIG, "z": ActionKind.DRAG_TO}[head]
        x, y = small_number(words[1]), small_number(words[2])
        bm = self.session.combat.bm
        if x is None or y is None or not (0 <= x < bm.width and 0 <= y < bm.height):
            self.console.print(
                f"Feld nicht auf der Karte (X 0 bis {bm.width - 1}, Y 0 bis {bm.height - 1})."
            )
            return False
        cell = bm.index(x, y)
        for action in cells:
            if action.kind is kind and action.cell == cell:
                return self._apply(action)
        self.console.print("Dieses Feld ist nicht erreichbar.")
        return False

    def _apply(self, action: Action) -> bool:
        try:
            self.session.human_step(action)
        except (IllegalActionError, ConfigError) as exc:
            self.console.print(f"Nicht möglich: {exc}", markup=False)
            return False
        return True
