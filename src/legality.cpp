// The Handlungen open to a fighter (H01-H12, K01-K05, P08, D09, A08): the native twin of
// cwenv/engine/offers.py handlung_actions, with the full-cover test of cover.py
// cover_against (C01-C04, R06, X23, X25, X26). Each function below names its Python twin;
// both must give the same list in the same order (tests/test_native_legality.py).
#include <algorithm>
#include <cstdlib>
#include <span>

#include "faults.hpp"
#include "kampf.hpp"

namespace cwenv::kampf {

bool Weapon::InRange(int distance) const {
  if (!ranged) {
    // Test-only fault (faults.hpp): a melee strike at exactly its reach is refused.
    if (g_fault == Fault::kMeleeReachEdge) return distance < reach;
    return distance <= reach;
  }
  for (int i = 0; i < bands; ++i)
    if (distance <= ranges[i].max_m) return true;
  return false;
}

// tables/maneuvers.py limits (K01-K05): _entwaffnen_limit, _festsetzen_limit, up_to_own_size.
bool ManeuverLimitOk(ManeuverLimit limit, const Spec& own, const Fighter& t, const Spec& ts) {
  switch (limit) {
    case ManeuverLimit::kArmedHumanoid:  // K01: an armed humanoid, a weapon in hand
      return ts.humanoid && !t.disarmed && t.drawn >= 0 && t.drawn < ts.carried &&
             !(t.dropped >> t.drawn & 1);
    case ManeuverLimit::kOneSizeLarger:  // K02
      return ts.size <= own.size + 1;
    case ManeuverLimit::kUpToOwnSize:  // K03-K05
      return ts.size <= own.size;
  }
  return false;
}

bool ManeuverAllowed(const GameDesc& g, const State& s, int fi, int ti, int m) {
  return ManeuverLimitOk(g.maneuvers[m], g.specs[fi], s.fighters[ti], g.specs[ti]);
}

bool WeaponUsable(const Spec& spec, const Fighter& f, int wi) {
  if (wi < spec.carried && (wi != f.drawn || f.dropped >> wi & 1)) return false;
  if (f.jammed >> wi & 1) return false;
  const Weapon& w = spec.weapons[wi];
  return !(w.ranged && w.magazine > 0 && f.ammo[wi] <= 0);
}

namespace {

constexpr int kHelpRangeM = 2;  // offers.py HELP_RANGE_M (P08)

Cover Stronger(Cover c) {  // types.py CoverLevel.stronger (C04)
  return static_cast<Cover>(std::min<int>(static_cast<int>(c) + 1, static_cast<int>(Cover::kFull)));
}

// One legality pass: the fighter, and line of sight and full cover per target (offers.py
// Memo; the answers are pure, the memo only spares work).
class Pass {
 public:
  Pass(const GameDesc& g, const Lines& lines, const State& s, int fi)
      : g_(g), lines_(lines), s_(s), f_(s.fighters[fi]), spec_(g.specs[fi]), fi_(fi) {
    sight_.assign(s.fighters.size(), -1);
    open_.assign(2 * s.fighters.size(), -1);
  }

  void Run(std::vector<Act>& out);
  friend Cover kampf::RangedCover(const GameDesc&, const Lines&, const State&, int, int);
  friend CoverAnswer kampf::CoverAgainst(const GameDesc&, const Lines&, const State&, int, int,
                                         bool, bool);

 private:
  std::span<const std::uint8_t> Opaque() const { return s_.opaque; }
  int Dist(const Fighter& t) const { return g_.Distance(f_.pos, t.pos); }
  bool Sight(int ti);
  bool OpenTo(int ti, bool area);
  Cover CoverLevel(const Fighter& t, bool area) const;
  Cover Living(const Fighter& t, int* who = nullptr) const;
  CoverAnswer Against(const Fighter& t, bool ranged, bool area) const;
  Cover Prone(const Fighter& t, Cover level) const;
  bool TargetOk(int ti) const;
  bool ManeuverOk(ManeuverLimit limit, int ti) const;
  bool ShakeOk(const Shakeable& rule) const;
  bool StabiliseOk(int ti) const;
  bool HelfenOk(int ti) const;
  void Add(Kind kind, int target = -1, int cell = -1, int arg = -1) {
    out_->push_back({kind, fi_, target, cell, arg});
  }

  const GameDesc& g_;
  const Lines& lines_;
  const State& s_;
  const Fighter& f_;
  const Spec& spec_;
  int fi_;
  std::vector<signed char> sight_, open_;
  std::vector<Act>* out_ = nullptr;
};

// offers.py target_problem: not oneself, alive, on the map, an enemy unless friendly fire.
bool Pass::TargetOk(int ti) const {
  const Fighter& t = s_.fighters[ti];
  if (ti == fi_ || t.dead || !t.on_map()) return false;
  return !(t.side == f_.side && !g_.options.friendly_fire);
}

bool Pass::Sight(int ti) {  // offers.py _sight (C01)
  signed char& hit = sight_[ti];
  if (hit < 0) hit = !lines_.Blocked(Opaque(), f_.pos, s_.fighters[ti].pos);
  return hit;
}

// offers.py open_to (C01): a direct ranged attack is possible, the target not in full cover.
bool Pass::OpenTo(int ti, bool area) {
  signed char& hit = open_[2 * ti + area];
  if (hit < 0) hit = CoverLevel(s_.fighters[ti], area) != Cover::kFull;
  return hit;
}

// cover.py _prone (R06, X23): prone in half cover counts as three-quarter, and
// three-quarter as full under prone_three_quarter_to_full.
Cover Pass::Prone(const Fighter& t, Cover level) const {
  if (!t.prone()) return level;
  if (level == Cover::kHalf) return Cover::kThreeQuarter;
  if (level == Cover::kThreeQuarter && g_.options.prone_three_quarter_to_full) return Cover::kFull;
  return level;
}

// cover.py living_cover (C04, X25): the best cover a creature on the line of fire gives;
// on a tie the creature nearer the target covers (``who``, where asked for).
Cover Pass::Living(const Fighter& t, int* who) const {
  if (!s_.any_occupant) return Cover::kNone;
  Cover best = Cover::kNone;
  const int tsize = g_.specs[&t - s_.fighters.data()].size;
  const Options& o = g_.options;
  auto consider = [&](int cell) {
    const int idx = s_.occupant[cell];
    if (idx < 0) return;
    const Fighter& c = s_.fighters[idx];
    if (c.dead || (!o.living_cover_prone_counts && (c.down || c.prone()))) return;
    Cover level;
    if (c.side == f_.side) level = Cover::kHalf;
    else if (c.side == kNeutral || f_.side == kNeutral)
      level = static_cast<Cover>(o.living_cover_neutral);
    else level = Cover::kThreeQuarter;
    const int size = g_.specs[idx].size;
    if (size < tsize) return;
    if (size > tsize) level = Stronger(level);
    if (g_fault == Fault::kLivingCoverTie ? level > best : level >= best) {
      best = level;
      if (who) *who = idx;
    }
  };
  for (const Step& step : Supercover(g_.width, f_.pos, t.pos)) {
    consider(step.first);
    if (step.second >= 0) consider(step.second);
  }
  return best;
}

// cover.py cover_against, ranged, its level (C01-C04, R06, X23, X25, X26): area attacks
// ignore half and three-quarter cover but not full cover.
Cover Pass::CoverLevel(const Fighter& t, bool area) const { return Against(t, true, area).level; }

// cover.py cover_against, the whole Cover (C01-C04, R06, X23, X25, X26): melee ignores
// cover unless X25 lets living cover count there; the terrain reported for an area attack
// is the prone-adjusted one, as cover.py's.
CoverAnswer Pass::Against(const Fighter& t, bool ranged, bool area) const {
  int who = -1;
  if (!ranged) {
    if (!g_.options.living_cover_melee) return {Cover::kNone, false, -1, Cover::kNone};
    const Cover level = Living(t, &who);
    return {level, level > Cover::kNone, who, Cover::kNone};
  }
  Cover tc = lines_.TerrainCover(Opaque(), f_.pos, t.pos);
  if (area) {
    tc = Prone(t, tc);
    return {tc == Cover::kFull ? Cover::kFull : Cover::kNone, false, -1, tc};
  }
  if (tc == Cover::kFull) return {tc, false, -1, tc};
  const Cover lc = Living(t, &who);
  if (lc == Cover::kNone) return {Prone(t, tc), false, -1, tc};
  if (g_.options.living_cover_stronger_by_one && tc > Cover::kNone)
    return {Prone(t, Stronger(std::max(tc, lc))), true, who, tc};
  if (lc > tc) return {Prone(t, lc), true, who, tc};
  return {Prone(t, tc), false, -1, tc};
}

bool Pass::ManeuverOk(ManeuverLimit limit, int ti) const {
  return ManeuverLimitOk(limit, spec_, s_.fighters[ti], g_.specs[ti]);
}

// offers.py shake_problem (H12) with tables/conditions.py's shake limits (Z01).
bool Pass::ShakeOk(const Shakeable& rule) const {
  if (rule.limit == ShakeLimit::kAboveHalfLp)
    return g_.options.angeschlagen_shake_below_half || 2 * f_.lp > spec_.lp;
  return true;
}

// offers.py stabilise_problem (D09, X35).
bool Pass::StabiliseOk(int ti) const {
  const Fighter& t = s_.fighters[ti];
  if (ti == fi_ || t.dead || !t.on_map() || !t.Has(kSterbend)) return false;
  return !(g_.options.stabilise_needs_adjacent && Dist(t) > 1);
}

// offers.py helfen_problem (P08, X41); the options are tested once by the caller.
bool Pass::HelfenOk(int ti) const {
  const Fighter& t = s_.fighters[ti];
  if (ti == fi_ || t.side != f_.side || !t.standing()) return false;
  if (Dist(t) > kHelpRangeM) return false;
  return !(t.helpers >> fi_ & 1);
}

// offers.py handlung_actions (H01-H12, K01-K05, P08, D09, A08), in its order.
void Pass::Run(std::vector<Act>& out) {
  out_ = &out;
  const Options& o = g_.options;
  const int n = static_cast<int>(s_.fighters.size());
  const bool prone = f_.prone();
  int targets[kMaxFighters];
  int nt = 0;
  for (int ti = 0; ti < n; ++ti)
    if (TargetOk(ti)) targets[nt++] = ti;
  int usable[kMaxWeapons];
  int nu = 0;
  for (int wi = 0; wi < spec_.n_weapons; ++wi)
    if (WeaponUsable(spec_, f_, wi)) usable[nu++] = wi;
  for (int k = 0; k < nt; ++k) {  // H01, A01, C01: in range, in sight, not full cover
    const int ti = targets[k];
    const int d = Dist(s_.fighters[ti]);
    for (int u = 0; u < nu; ++u) {
      const Weapon& w = spec_.weapons[usable[u]];
      if (!w.InRange(d)) continue;
      if (w.ranged ? OpenTo(ti, w.area_radius > 0) : Sight(ti)) Add(Kind::kAttack, ti, -1, usable[u]);
    }
  }
  for (int k = 0; k < nt; ++k) {  // K01-K05: unarmed reach, against standing foes
    const int ti = targets[k];
    if (s_.fighters[ti].down || Dist(s_.fighters[ti]) > 1) continue;
    for (int m = 0; m < static_cast<int>(g_.maneuvers.size()); ++m)
      if (ManeuverOk(g_.maneuvers[m], ti)) Add(Kind::kManeuver, ti, -1, m);
  }
  // H11 Zielen: a drawn, usable ranged weapon; a standing target below the aim's
  // maximum (X03), in range, not in full cover.
  if (f_.drawn >= 0 && spec_.weapons[f_.drawn].ranged && WeaponUsable(spec_, f_, f_.drawn)) {
    const Weapon& w = spec_.weapons[f_.drawn];
    for (int k = 0; k < nt; ++k) {
      const int ti = targets[k];
      const Fighter& t = s_.fighters[ti];
      if (t.down || (ti == f_.aim_target && f_.aim_stacks >= o.zielen_max_stacks)) continue;
      if (w.InRange(Dist(t)) && OpenTo(ti, false)) Add(Kind::kZielen, ti);
    }
  }
  for (int hi = 0; hi < spec_.n_hacks; ++hi) {  // H03 Uploaden, H10 Hacken
    const Hack& hack = spec_.hacks[hi];
    if (f_.upload_progress[hi] < hack.upload) {
      Add(Kind::kUpload, -1, -1, hi);
      continue;
    }
    for (int k = 0; k < nt; ++k) {
      const int ti = targets[k];
      if (Dist(s_.fighters[ti]) <= hack.range_m && OpenTo(ti, hack.area_radius > 0))
        Add(Kind::kHack, ti, -1, hi);
    }
  }
  // B01, Z03, X40 movement_allowance > 0 (its prone branch never applies: not prone).
  int metres = spec_.movement;
  if (f_.Has(kEingeschraenkt)) metres = std::max(1, metres / 2);
  if (metres > 0 && !prone) Add(Kind::kSprint);
  if (prone) Add(Kind::kAufstehen);  // H02
  // H04 doors: a neighbour cell (grid.py's order) with a door, its doorway empty.
  const int x = f_.pos % g_.width, y = f_.pos / g_.width;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = x + dx, ny = y + dy;
      if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= g_.width || ny >= g_.height) continue;
      const int cell = ny * g_.width + nx;
      const Terrain t = g_.terrain[cell];
      if ((t == Terrain::kDoorClosed || t == Terrain::kDoorOpen) && s_.occupant[cell] < 0)
        Add(Kind::kDoor, -1, cell);
    }
  for (int wi = 0; wi < spec_.carried; ++wi) {  // H04 draw, pick up
    if (f_.dropped >> wi & 1) Add(Kind::kPickUp, -1, -1, wi);
    else if (wi != f_.drawn) Add(Kind::kDraw, -1, -1, wi);
  }
  for (int slot = 0; slot < f_.n_items; ++slot) {  // H04 item_problem: it would do something
    const Item& item = f_.items[slot];
    if (item.heal ? f_.lp < spec_.lp : item.condition >= 0 && f_.Has(item.condition))
      Add(Kind::kUseItem, -1, -1, slot);
  }
  if (f_.drawn >= 0) {  // H05 reload_problem: a magazine not full, reloads left
    const Weapon& w = spec_.weapons[f_.drawn];
    if (w.uses_ammo() && w.nachladen >= 1 && f_.ammo[f_.drawn] < w.magazine &&
        f_.reloads[f_.drawn] != 0)
      Add(Kind::kReload, -1, -1, f_.drawn);
  }
  for (int slot = 0; slot < f_.backpack; ++slot) Add(Kind::kRucksack, -1, -1, slot);  // H06
  for (int k = 0; k < spec_.n_cyber; ++k)  // H09
    if (spec_.cyber_ability[k] && f_.cyber_uses[k] > 0) Add(Kind::kCyberware, -1, -1, k);
  for (const Shakeable& rule : g_.shakeable)  // H12
    if (f_.Has(rule.condition) && ShakeOk(rule)) Add(Kind::kShake, -1, -1, rule.condition);
  for (int ti = 0; ti < n; ++ti)  // D09
    if (StabiliseOk(ti)) Add(Kind::kStabilise, ti);
  if (o.helfen_in_combat && (f_.side == kRunner || o.nsc_may_help))  // P08, X41
    for (int ti = 0; ti < n; ++ti)
      if (HelfenOk(ti)) Add(Kind::kHelfen, ti);
  for (int wi = 0; wi < kMaxWeapons; ++wi)  // A08 Waffe freimachen
    if (f_.jammed >> wi & 1) Add(Kind::kFreeWeapon, -1, -1, wi);
}

}  // namespace

void HandlungActions(const GameDesc& g, const Lines& lines, const State& s, int fi,
                     std::vector<Act>& out) {
  out.clear();
  Pass(g, lines, s, fi).Run(out);
}

CoverAnswer CoverAgainst(const GameDesc& g, const Lines& lines, const State& s, int attacker,
                         int target, bool ranged, bool area) {
  return Pass(g, lines, s, attacker).Against(s.fighters[target], ranged, area);
}

Cover RangedCover(const GameDesc& g, const Lines& lines, const State& s, int attacker, int target) {
  return Pass(g, lines, s, attacker).CoverLevel(s.fighters[target], false);
}

}  // namespace cwenv::kampf
