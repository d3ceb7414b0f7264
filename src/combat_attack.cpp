// The native combat's attack (combat.hpp): attack.py AttackFrame (A01-A05, A07, C01-C05,
// R02, R03, R06, H11, X03, X09, X23, X27), hits.py hit_effects and effects.py
// patzer_effects (A08) for weapon attacks and Blockadeangriffe. Hacks and Kampfmanöver
// raise Unported in the turn (combat_turn.cpp) before anything of them is applied.
#include <algorithm>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

// AttackStage
constexpr int kDeclare = 0, kRollStage = 1, kRolled = 2, kDefend = 3, kCompared = 4,
              kEffectsDone = 5, kAfterPatzer = 6, kPatzerDefended = 7;
constexpr int kAutoFail = 19;  // probe.py AUTO_FAIL_ROLL (C05: a 19 fails whatever the cover)
constexpr int kNoRows = 0, kAllRows = 2;  // ManeuverCrit: none, (conditions,) all_rows

}  // namespace

// The row of 2W10 - QS in a table listed from strike_.table_low on: a lower roll reads the
// first row, a higher one the last (tables.py: "<= 0" and "15+").
std::size_t NativeCombat::TableAt(std::size_t rows, int roll) const {
  const int i = roll - strike_.table_low;
  return i < 0 ? 0 : std::min(static_cast<std::size_t>(i), rows - 1);
}

NativeCombat::Result NativeCombat::Step(AttackF& a, Value v) {
  switch (a.stage) {
    case kDeclare: return Declare(a);
    case kRollStage: return RollAttack(a, v);
    case kRolled: return Rolled(a, v.probe);
    case kDefend: return Defend(a, v.answer);
    case kCompared: return Compared(a, v.probe);
    case kEffectsDone: return NextTarget(a);
    case kAfterPatzer: return Result::kDone;
    case kPatzerDefended:
      a.stage = kAfterPatzer;
      return PatzerEffects(a, v.probe.qs);
    default: throw std::logic_error("an AttackFrame stage without its step");
  }
}

// AttackFrame._declare: the shot's round or the hack's upload is spent; a ranged direct
// attack's target may drop prone first (R06, X23).
NativeCombat::Result NativeCombat::Declare(AttackF& a) {
  Fighter& f = s_.fighters[a.attacker];
  const Fighter& t = s_.fighters[a.target];
  Count(Tally::kAttack, static_cast<int>(a.mode));
  events_.push_back(AttackDeclared{a.attacker, a.target, static_cast<int>(a.mode), a.index});
  const Spec& spec = g_.specs[a.attacker];
  bool ranged = false;  // attack_plan.py attack_is_ranged and area_radius
  int radius = 0;
  if (a.mode == Mode::kHack) {
    f.upload_progress[a.index] = 0;
    ranged = true, radius = spec.hacks[a.index].area_radius;
  } else if (a.mode != Mode::kManeuver) {
    const Weapon& w = spec.weapons[a.index];
    if (a.mode == Mode::kWeapon && w.uses_ammo()) --f.ammo[a.index];
    ranged = w.ranged, radius = w.area_radius;
  }
  a.stage = kRollStage;
  if (ranged && !radius && !t.prone()) {
    NiederwerfenChoices(g_, prompts_, t, a.target, ReactingOf(a.target), a.attacker, asked_acts_);
    if (!asked_acts_.empty()) return Ask(Asked::kNiederwerfen, a.target, asked_acts_);
  }
  return RollAttack(a, {});
}

// AttackFrame._roll: R06's answer, the plan (A01, C01-C05), full cover, the roll.
NativeCombat::Result NativeCombat::RollAttack(AttackF& a, const Value& v) {
  if (v.prompted && v.answer.kind == PromptKind::kDropProne) {
    PayReaction(a.target, v.answer.mumm, Reaction::kDropProne);
    GainCondition(a.target, kNiedergeworfen);
    s_.fighters[a.target].prone_bonus = true;
  }
  PlanAttack(g_, lines_, s_, a.attacker, a.target, a.mode, a.index, plan_);
  a.cover = plan_.cover;
  a.targets = plan_.targets;
  if (plan_.cover.level == Cover::kFull) {
    events_.push_back(AttackFailed{a.attacker, a.target, true});
    return Result::kDone;
  }
  a.aim_qs = plan_.aim_qs;
  if (plan_.aim_qs) Count(Tally::kZielenUsed);
  Fighter& f = s_.fighters[a.attacker];
  if (f.aim_stacks && a.mode == Mode::kWeapon && plan_.ranged)
    f.aim_stacks = 0, f.aim_target = -1;  // the aim is spent on this shot (X03)
  a.no_cover_pw = plan_.no_cover_probenwert;
  a.stage = kRolled;
  CheckF c;
  c.fighter = a.attacker, c.purpose = Purpose::kAttack;
  c.attacker = a.attacker, c.target = a.target, c.mode = static_cast<int>(a.mode);
  c.index = a.index, c.parts = plan_.parts, c.own = plan_.own_parts;
  c.about_attack = true, c.aim_qs = a.aim_qs;
  return Push(std::move(c));
}

// AttackFrame._rolled: a miss through living cover (C05), a Patzer (A08, X09), a miss.
NativeCombat::Result NativeCombat::Rolled(AttackF& a, const Probe& result) {
  a.attack = result;
  if (!result.success) {
    // C05 before the Patzer: a roll that fails only by the living cover's penalty
    if (a.cover.living && result.total() <= a.no_cover_pw && result.total() < kAutoFail) {
      const int d = dice_.D10();  // 50 %: 1-5 on a W10 hits the covering creature
      if (d <= 5) {
        const int original = a.target;
        a.target = a.cover.coverer;
        a.targets = {a.cover.coverer};
        events_.push_back(AttackRedirected{a.attacker, original, a.cover.coverer, d});
        a.attack = ResolveProbe(strike_.probe, a.no_cover_pw, result.d1, result.d2);
        a.aim_qs = 0;
        return NextTarget(a);
      }
    }
    if (result.patzer) {
      Count(Tally::kPatzer);
      const Fighter& t = s_.fighters[a.target];
      if (strike_.patzer_defence_roll && CanReact(t)) {  // X09: the target rolls its defence
        // attack_plan.py defence_values (A03, X21, X22), the best of them
        const auto& values = g_.attack.specs[a.target].values;
        int skill = prompts_.ausweichen;
        if (a.mode == Mode::kHack) {
          skill = prompts_.firewall;
        } else if (a.mode == Mode::kManeuver) {
          skill = prompts_.kampfkunst;
        } else if (!g_.specs[a.attacker].weapons[a.index].ranged && prompts_.melee_two_defences &&
                   values[prompts_.kampfkunst] > values[skill]) {
          skill = prompts_.kampfkunst;
        }
        a.stage = kPatzerDefended;
        CheckF c = Check(a.target, skill, Purpose::kDefence, true, true);
        c.attacker = a.attacker, c.target = a.target, c.mode = static_cast<int>(a.mode);
        c.index = a.index, c.about_attack = true, c.about_roll = true, c.about = a.attack;
        c.aim_qs = a.aim_qs;
        return Push(std::move(c));
      }
      a.stage = kAfterPatzer;
      return PatzerEffects(a, 0);
    }
    events_.push_back(AttackFailed{a.attacker, a.target, false});
    return Result::kDone;
  }
  if (result.volltreffer) Count(Tally::kVolltreffer);
  return NextTarget(a);
}

// AttackFrame._next_target: the defence prompt of each target in turn (A02).
NativeCombat::Result NativeCombat::NextTarget(AttackF& a) {
  while (a.ti < static_cast<int>(a.targets.size())) {
    const int ti = a.targets[a.ti];
    const Fighter& t = s_.fighters[ti];
    if (t.dead) {
      ++a.ti;
      continue;
    }
    a.stage = kDefend;
    if (a.attack.volltreffer && !strike_.volltreffer_defendable) return HitTarget(a, -1);
    DefenceChoices(g_, prompts_, t, ti, ReactingOf(ti), a.attacker, a.mode, a.index, asked_acts_);
    if (asked_acts_.empty()) return HitTarget(a, -1);
    return Ask(Asked::kDefend, ti, asked_acts_);
  }
  return Result::kDone;
}

// AttackFrame._defend: no defence, or a reaction paid (X22) and the defence rolled.
NativeCombat::Result NativeCombat::Defend(AttackF& a, const PromptAct& choice) {
  const int ti = a.targets[a.ti];
  if (choice.kind == PromptKind::kNoDefence) {
    events_.push_back(DefenceDeclined{ti});
    return HitTarget(a, -1);
  }
  if (!(a.mode == Mode::kManeuver && prompts_.maneuver_defence_free))
    PayReaction(ti, choice.mumm, Reaction::kDefence);
  a.stage = kCompared;
  CheckF c = Check(ti, choice.arg, Purpose::kDefence, true, true);
  c.attacker = a.attacker, c.target = ti, c.mode = static_cast<int>(a.mode), c.index = a.index;
  c.about_attack = true, c.about_roll = true, c.about = a.attack, c.aim_qs = a.aim_qs;
  return Push(std::move(c));
}

// AttackFrame._compared: A04's comparison; a defence Patzer throws the target (X09).
NativeCombat::Result NativeCombat::Compared(AttackF& a, const Probe& result) {
  const int ti = a.targets[a.ti];
  const int qs = HitQs(strike_.probe, a.attack, result);
  if (qs < 0) {
    Count(Tally::kDefended);
    events_.push_back(AttackDefended{a.attacker, ti, a.attack.total(), result.total()});
    ++a.ti;
    return NextTarget(a);
  }
  if (!result.success && result.patzer && strike_.defence_patzer_niedergeworfen)
    GainCondition(ti, kNiedergeworfen);
  return HitTarget(a, result.success || strike_.probe.lone_winner_difference ? qs : -1);
}

// AttackFrame._hit (A04, A05, A07, H11, X03): ``weakened_qs`` -1 is the attack's own QS.
NativeCombat::Result NativeCombat::HitTarget(AttackF& a, int weakened_qs) {
  const int ti = a.targets[a.ti];
  int qs = weakened_qs < 0 ? a.attack.qs : weakened_qs;
  const int aim = weakened_qs < 0 || strike_.zielen_qs_on_weakened_hit ? a.aim_qs : 0;
  qs += aim;
  Count(Tally::kHits);
  events_.push_back(Hit{a.attacker, ti, qs, weakened_qs >= 0, aim});
  Fighter& t = s_.fighters[ti];
  if (strike_.zielen_lost_on_hit && t.aim_stacks) t.aim_stacks = 0, t.aim_target = -1;
  const TableRow* crit = nullptr;
  // hits.py crit_rows (A07, X33): every row for an attack with damage, a damage-free
  // Kampfmanöver's by maneuver_volltreffer_rows
  const int rows =
      a.mode == Mode::kManeuver && !strike_.maneuver_damage ? strike_.maneuver_rows : kAllRows;
  if (a.attack.volltreffer && rows != kNoRows) {
    const int d1 = dice_.D10();
    const int d2 = dice_.D10();
    crit = &strike_.crits[TableAt(strike_.crits.size(), d1 + d2 - qs)];
    events_.push_back(TableRolled{a.attacker, Table::kVolltreffer, d1, d2, qs, crit->row});
  }
  a.stage = kEffectsDone;
  ++a.ti;
  return HitEffects(a, ti, qs, crit, rows == kAllRows);
}

// hits.py hit_effects: a Kampfmanöver's effect (K01-K05), the damage of a weapon, a hack or
// (X22) a Kampfmanöver's unarmed strike (A06) with the Volltreffer's extra dice (X33) and a
// disarmed NSC's -2 (K01, X22), a hack's condition and Zehrend (H10), the weapon's Zehrend,
// the table's condition and Zehrend (A07, Z08; ``crit_zehrend``: its row's Zehrend acts).
NativeCombat::Result NativeCombat::HitEffects(AttackF& a, int target, int qs,
                                              const TableRow* crit, bool crit_zehrend) {
  const int extra = crit ? crit->extra : 0;
  const bool direct = crit && crit->direct;
  const bool all_direct = direct && strike_.zerschmettert_all_direct;
  const StrikeSpec& spec = strike_.specs[a.attacker];
  SeqF seq;
  const auto damage = [&](int bonus, int mode, std::uint64_t forms, bool non_lethal, Cause cause) {
    DamageF d;
    d.target = target, d.source = a.attacker, d.dice = qs + extra, d.bonus = bonus;
    d.mode = all_direct ? kArmourDirekt : mode;
    d.forms = forms, d.non_lethal = non_lethal, d.cause = cause;
    d.bare = strike_.crit_bare_die ? extra : 0;
    d.direct_tail = direct && !all_direct ? extra : 0;
    if (s_.fighters[a.attacker].disarmed)  // hits.py disarmed_malus
      d.flat = -strike_.entwaffnen_nsc_penalty * (strike_.disarmed_per_die ? qs + extra : 1);
    seq.frames.emplace_back(d);
  };
  if (a.mode == Mode::kHack) {
    const StrikeHack& h = spec.hacks[a.index];
    if (h.deals_damage && qs + extra > 0)
      damage(h.bonus, h.armour_mode, h.forms, false, {CauseKind::kHack, a.attacker, a.index});
    if (h.condition >= 0) GainCondition(target, h.condition);
    if (h.zehrend >= 0) {
      std::optional<DamageF> again = GainZehrend(target, h.zehrend);
      if (again) seq.frames.emplace_back(std::move(*again));
    }
  } else {
    bool deals = true;
    int wi = a.index;
    if (a.mode == Mode::kManeuver) {
      ManeuverEffects(a, target, seq);  // K01-K05, at once
      deals = strike_.maneuver_damage;
      wi = static_cast<int>(spec.weapons.size()) - 1;  // UNARMED, the last of all_weapons
    }
    if (deals) {
      const StrikeWeapon& w = spec.weapons[wi];
      damage(w.bonus, w.armour_mode, w.forms, w.non_lethal, {CauseKind::kWeapon, a.attacker, wi});
      if (w.zehrend >= 0) seq.frames.emplace_back(ZehrendF{0, target, w.zehrend});
    }
  }
  if (crit && crit->condition >= 0) GainCondition(target, crit->condition);
  if (crit && crit_zehrend && crit->zehrend >= 0)
    seq.frames.emplace_back(ZehrendF{0, target, crit->zehrend});
  return Push(std::move(seq));
}

// effects.py patzer_effects (A08): 2W10 - the defender's QS (X09), the row to the attacker.
NativeCombat::Result NativeCombat::PatzerEffects(AttackF& a, int qs) {
  const int d1 = dice_.D10();
  const int d2 = dice_.D10();
  const int row = strike_.fumbles[TableAt(strike_.fumbles.size(), d1 + d2 - qs)];
  events_.push_back(TableRolled{a.attacker, Table::kPatzer, d1, d2, qs, row});
  Count(Tally::kPatzerRow, row);
  SeqF seq;
  DamageF self;  // Muskelriss, Überdehnt: 1W10 direct to the attacker
  self.target = a.attacker, self.dice = 1, self.mode = kArmourDirekt;
  switch (static_cast<Fumble>(row)) {
    case Fumble::kMuskelriss:
      GainCondition(a.attacker, kAngeschlagen);
      self.cause = {CauseKind::kMuskelriss};
      seq.frames.emplace_back(self);
      break;
    case Fumble::kUeberdehnt:
      self.cause = {CauseKind::kUeberdehnt};
      seq.frames.emplace_back(self);
      break;
    case Fumble::kOffeneDeckung:
      GainCondition(a.attacker, kVerwirrt);
      break;
    case Fumble::kFehltritt: {  // 2 m onward past the opponent, eingeschränkt
      GainCondition(a.attacker, kEingeschraenkt);
      ForcedMoveF m;
      m.fighter = a.attacker, m.path = SlidePath(a.attacker, s_.fighters[a.target].pos);
      m.cause = How::kFehltritt, m.provoke = strike_.forced_provoke;
      seq.frames.emplace_back(std::move(m));
      break;
    }
    case Fumble::kWaffeBlockiert:  // weapon attacks only (AttackMode.with_weapon)
      if ((a.mode == Mode::kWeapon || a.mode == Mode::kBlockade) &&
          !strike_.specs[a.attacker].weapons[a.index].unarmed) {
        s_.fighters[a.attacker].jammed |= 1u << a.index;
        events_.push_back(Acted{a.attacker, ActKind::kJammed, -1, a.index, 0});
      }
      break;
    case Fumble::kEntmutigt:
      GainCondition(a.attacker, kEntmutigt);
      break;
    case Fumble::kUnsauber:
      break;
  }
  return Push(std::move(seq));
}

}  // namespace cwenv::kampf
