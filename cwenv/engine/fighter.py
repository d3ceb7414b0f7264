"""A fighter's mutable state during one combat; the stat block stays in :class:`FighterSpec`."""

from __future__ import annotations

from cwenv.model.specs import FighterSpec, ItemSpec, WeaponSpec
from cwenv.model.types import Condition, Side, WeaponKind


class FighterState:
    """Everything about one fighter that changes during a fight.

    ``conditions`` is a bit set over :class:`Condition`; ``zehrend`` holds the Zehrend
    types (Z08). ``down`` is «kampfunfähig» (D07) or unconscious (D05, M04).
    """

    __slots__ = (
        "actionbonus_used",
        "actions",
        "aim_stacks",
        "aim_target",
        "ammo",
        "armour_bonus",
        "backpack",
        "climb_cell",
        "climb_height",
        "conditions",
        "cyber_uses",
        "dead",
        "disarmed",
        "down",
        "drawn",
        "dropped",
        "extra_action_used",
        "fled",
        "focus_bonus",
        "grundwert",
        "helpers",
        "idx",
        "initiative",
        "items",
        "jammed",
        "lp",
        "mumm",
        "mumm_max",
        "pos",
        "prone_bonus",
        "reactions",
        "reload_progress",
        "reloads",
        "side",
        "spec",
        "stabilised",
        "upload_progress",
        "weapons",
        "zehrend",
        "zone_zehrend",
    )

    def __init__(self, idx: int, spec: FighterSpec, pos: int) -> None:
        self.idx = idx
        self.spec = spec
        self.side: Side = spec.side
        self.pos = pos
        self.lp = spec.lp
        self.mumm = spec.mumm
        self.mumm_max = max(spec.mumm_max, spec.mumm)
        self.reactions = 0
        self.conditions = 0
        self.zehrend: tuple[str, ...] = ()
        self.zone_zehrend: tuple[str, ...] = ()  # Zehrend types caused by a danger zone (D03)
        self.dead = False
        self.down = False
        self.stabilised = False
        self.fled = False
        self.initiative = 0
        self.grundwert = spec.initiative_grundwert
        self.actions = 0
        self.aim_target = -1
        self.aim_stacks = 0
        self.weapons: tuple[WeaponSpec, ...] = spec.all_weapons
        carried = len(spec.weapons)
        self.drawn = 0 if carried else -1  # index of the drawn carried weapon (H04)
        self.ammo = [w.magazine for w in self.weapons]
        self.reload_progress = [0] * len(self.weapons)
        self.reloads = [-1 if w.reloads is None else w.reloads for w in self.weapons]
        self.jammed = 0  # bit set over weapon indices (A08 Waffe blockiert)
        self.dropped = 0  # bit set over carried weapons knocked away (K01)
        self.disarmed = False  # NSC −2 after Entwaffnen (K01)
        self.upload_progress = [0] * len(spec.hacks)
        self.cyber_uses = [w.ability.uses if w.ability else 0 for w in spec.cyberware]
        self.items: list[ItemSpec] = list(spec.items)  # consumables at hand (H04)
        self.backpack: list[ItemSpec] = list(spec.backpack)  # fetched with H06
        self.extra_action_used = False
        self.prone_bonus = False
        self.helpers: tuple[int, ...] = ()  # allies who announced help (P08, X60)
        self.focus_bonus = 0
        self.armour_bonus = 0
        self.actionbonus_used = False
        self.climb_cell = -1  # the ledge being climbed over several actions (B03, X40)
        self.climb_height = 0  # metres of it climbed so far

    def copy(self) -> FighterState:
        """An independent twin (clone()); written out slot by slot, which is several
        times faster than a loop over ``__slots__`` (tests check every slot is here)."""
        twin = FighterState.__new__(FighterState)
        twin.actionbonus_used = self.actionbonus_used
        twin.climb_cell = self.climb_cell
        twin.climb_height = self.climb_height
        twin.actions = self.actions
        twin.aim_stacks = self.aim_stacks
        twin.aim_target = self.aim_target
        twin.ammo = self.ammo.copy()
        twin.armour_bonus = self.armour_bonus
        twin.backpack = self.backpack.copy()
        twin.conditions = self.conditions
        twin.cyber_uses = self.cyber_uses.copy()
        twin.dead = self.dead
        twin.disarmed = self.disarmed
        twin.down = self.down
        twin.drawn = self.drawn
        twin.dropped = self.dropped
        twin.extra_action_used = self.extra_action_used
        twin.fled = self.fled
        twin.focus_bonus = self.focus_bonus
        twin.grundwert = self.grundwert
        twin.helpers = self.helpers
        twin.idx = self.idx
        twin.initiative = self.initiative
        twin.items = self.items.copy()
        twin.jammed = self.jammed
        twin.lp = self.lp
        twin.mumm = self.mumm
        twin.mumm_max = self.mumm_max
        twin.pos = self.pos
        twin.prone_bonus = self.prone_bonus
        twin.reactions = self.reactions
        twin.reload_progress = self.reload_progress.copy()
        twin.reloads = self.reloads.copy()
        twin.side = self.side
        twin.spec = self.spec
        twin.stabilised = self.stabilised
        twin.upload_progress = self.upload_progress.copy()
        twin.weapons = self.weapons
        twin.zehrend = self.zehrend
        twin.zone_zehrend = self.zone_zehrend
        return twin

    # -- conditions ---------------------------------------------------------------------
    def has(self, condition: Condition) -> bool:
        return bool(self.conditions >> condition & 1)

    def let_go(self) -> None:
        """B03, X40: a climb in progress ends (moved, knocked down, benommen, down)."""
        self.climb_cell = -1
        self.climb_height = 0

    def condition_list(self) -> list[Condition]:
        return [c for c in Condition if self.conditions >> c & 1]

    @property
    def name(self) -> str:
        return self.spec.name

    # -- status -------------------------------------------------------------------------
    @property
    def standing(self) -> bool:
        """Still in the fight: alive, not kampfunfähig or unconscious, not fled."""
        return not (self.dead or self.down or self.fled)

    @property
    def on_map(self) -> bool:
        return not self.fled

    @property
    def prone(self) -> bool:
        return bool(self.conditions >> Condition.NIEDERGEWORFEN & 1)

    def weapon_usable(self, i: int) -> bool:
        """A weapon can strike: drawn (built-in and unarmed always are), not jammed or lost."""
        carried = len(self.spec.weapons)
        if i < carried and (i != self.drawn or self.dropped >> i & 1):
            return False
        if self.jammed >> i & 1:
            return False
        w = self.weapons[i]
        return not (w.kind is WeaponKind.RANGED and w.magazine > 0 and self.ammo[i] <= 0)

    @property
    def melee_reach(self) -> int:
        """The longest reach among usable melee weapons (R04 Blockadeangriff)."""
        best = 0
        for i, w in enumerate(self.weapons):
            if w.kind is WeaponKind.MELEE and w.reach > best and self.weapon_usable(i):
                best = w.reach
        return best
