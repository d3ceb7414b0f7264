"""The terminal game: map, fighters, narration, and menus of legal choices (rich)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from cwenv.engine.actions import Action, ActionKind
from cwenv.engine.narration import narrate, rounds_text
from cwenv.engine.state import IllegalActionError
from cwenv.play.assist import Assistant, QuickAttack, quick_targets, searches_now
from cwenv.play.board_view import mark, render_map, status_table, turn_order
from cwenv.play.menu import label
from cwenv.play.screen import input_for, show_advice, show_decision
from cwenv.play.table_game import DiceMode, PlayError, PlaySession
from cwenv.yamlio import ConfigError

HELP = (
    "Befehle: Nummer = Wahl · Enter = Vorgabe · a N = Angriff auf Ziel N (a N + = mit Probe "
    "verbessern) · b X Y = bewegen · sb X Y = schwierige Bewegung · z X Y = zerren · "
    "? = Rat · u = rückgängig · s DATEI = speichern · k = Karte · q = beenden"
)


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
    ``resolving`` says what a typed W10 is for (:mod:`cwenv.play.roll_text`; empty when
    nothing can say).
    """

    def __init__(self, console: Console, read: Callable[[str], str]) -> None:
        self.console = console
        self.read = read
        self.told = ""  # what the table_game said the next W10 is for (tell_die)
        self.resolving: Callable[[], str] = lambda: self.told

    def tell(self, what: str) -> None:
        self.told = what

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
        prompt = f"{what} > " if what else "W10 > "
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

    ``assistant`` holds the advisor whose choice Enter takes (and, with ``hint``, whose
    proposal is shown before every decision of a human).

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
        assistant: Assistant | None = None,
        hint: bool = False,
    ):
        self.session = session
        self.assistant = assistant if assistant is not None else Assistant(None)
        self.hint = hint
        self.quick: QuickAttack | None = None
        self.console = console
        self.prompt = prompt if prompt is not None else Prompt(console, read)
        self.prompt.resolving = self.roll_prompt
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

    def roll_prompt(self) -> str:
        """What the W10 asked now is for; what happened before it in this step is told
        first (a hit and its QS before its damage dice)."""
        dice = self.session.table_dice
        if dice is not None and dice.combat is getattr(self.session, "combat", None):
            self.narrate_new()
        return self.session.die_text()

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
            return
        c = s.combat
        agent = s.agents[c.fighters[c.current_fighter()].side]
        budget = searches_now(agent, c)
        if budget is not None:  # a search takes a while: say so before it starts
            self.narrate_new()
            who = c.fighters[c.current_fighter()].name
            self.console.print(f"{who} denkt nach … ({agent.name}: {budget})", markup=False)
        s.agent_step()

    def human_decision(self) -> None:
        """Ask until one legal choice is made (QuitRequested when the player gives up)."""
        c = self.session.combat
        d = c.decision
        if d is None:
            raise PlayError("no decision is pending")
        legal = c.legal_actions()
        if self.quick is not None:
            action, over = self.quick.answer(c, legal)
            if over:
                self.quick = None
            if action is not None:  # this attack's own roll: answered as `a N` said
                self.console.print(f"  (a) {label(c, action)}", markup=False, highlight=False)
                self._apply(action, undo_point=False)
                return
        numbered, cells = show_decision(self.console, c, legal, self.assistant, self.hint)
        while True:
            line = self.ask("> ").strip()
            if self.command(line, numbered, cells):
                return

    def command(self, line: str, numbered: list[Action], cells: list[Action]) -> bool:
        """Carry out one input line; False means ask again."""
        s = self.session
        words = line.split()
        if not words:
            return self._enter(numbered)
        head = words[0].lower()
        if head == "q":
            if self.confirm_quit():
                raise QuitRequested
            return False
        if head == "k":
            self.console.print(render_map(s.combat))
            self.console.print(status_table(s.combat))
            self.console.print(turn_order(s.combat), markup=False, highlight=False)
            return False
        if head == "?":
            show_advice(self.console, s.combat, self.assistant)
            return False
        if head == "u":
            if s.undo():
                self.shown = len(s.combat.events)
                self.quick = None
                self.console.print("Letzte Entscheidung zurückgenommen.")
                return True
            self.console.print("Nichts zum Zurücknehmen.")
            return False
        if head == "s" and len(words) >= 2:
            self.save(line.split(maxsplit=1)[1])
            return False
        if head in ("b", "sb", "z") and len(words) == 3:
            return self._cell_choice(head, words, cells)
        if head == "a" and 2 <= len(words) <= 3:
            return self._quick_attack(words)
        choice = small_number(head)
        if choice is not None and 1 <= choice <= len(numbered):
            return self._apply(numbered[choice - 1])
        self.console.print(HELP)
        return False

    def _enter(self, numbered: list[Action]) -> bool:
        c = self.session.combat
        default = self.assistant.default(c, c.legal_actions())
        if default is None:
            self.console.print("Enter hat hier keine Vorgabe: bitte eine Nummer wählen.")
            return False
        self.console.print(f"  → {input_for(c, default[0], numbered)}", markup=False)
        return self._apply(default[0])

    def _quick_attack(self, words: list[str]) -> bool:
        c = self.session.combat
        default = self.assistant.default(c, c.legal_actions())
        quick = quick_targets(c, c.legal_actions(), default[0] if default else None)
        by_mark = {mark(c, t): n for n, (t, _) in enumerate(quick, 1)}
        n = small_number(words[1]) or by_mark.get(words[1])
        improve = words[2:] == ["+"]
        if not quick or n is None or not 1 <= n <= len(quick) or (len(words) == 3 and not improve):
            listed = f"1 bis {len(quick)}" if quick else "keins: kein Ziel in Reichweite"
            self.console.print(f"a N: N ist ein Ziel aus der Liste ({listed}); a N + verbessert.")
            return False
        action = quick[n - 1][1]
        if self._apply(action):
            self.quick = QuickAttack(action.actor, improve)
            return True
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

    def _apply(self, action: Action, undo_point: bool = True) -> bool:
        d = self.session.combat.decision
        try:
            self.session.human_step(action, undo_point=undo_point)
        except (IllegalActionError, ConfigError) as exc:
            self.console.print(f"Nicht möglich: {exc}", markup=False)
            return False
        if d is not None:
            self.assistant.last[d.kind] = action
        return True
