// agents/native/board.hpp: each function names its twin in agents/board.py,
// agents/estimates.py or agents/cells.py.
#include "board.hpp"

#include <algorithm>
#include <span>

namespace cwenv::doctrine {

using cwenv::Cover;
using cwenv::Terrain;

namespace {

bool Standable(const StrikeRules& strike, Terrain t) {
  return strike.standable >> static_cast<int>(t) & 1;
}

}  // namespace

int Board::ShotModifier(int rm, Cover cover, bool prone_bonus) const {
  if (prone_bonus && cover == Cover::kNone) return rm - at.prone_malus;
  return rm + kCoverPenalty[static_cast<int>(cover)];
}

// -- walks (board.py _Walks, walk_field, cover_cells) --------------------------------------
void Walks::Use(const GameDesc& g, const StrikeRules& strike) {
  if (g.width == width_ && g.height == height_ && g.terrain == terrain_ &&
      g.elevation == elevation_)
    return;
  *this = Walks();
  width_ = g.width, height_ = g.height, terrain_ = g.terrain, elevation_ = g.elevation;
  const int size = width_ * height_;
  std::vector<bool> passable(size);
  for (int i = 0; i < size; ++i)
    passable[i] = Standable(strike, terrain_[i]) || terrain_[i] == Terrain::kDoorClosed;
  adjacent_.resize(size);
  cover_.assign(size, 0);
  for (int cell = 0; cell < size; ++cell) {
    const int x = cell % width_, y = cell / width_;
    bool near_cover = false;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = x + dx, ny = y + dy;
        if ((dx == 0 && dy == 0) || nx < 0 || nx >= width_ || ny < 0 || ny >= height_) continue;
        const int n = ny * width_ + nx;
        near_cover |= terrain_[n] == Terrain::kCoverHalf ||
                      terrain_[n] == Terrain::kCoverThreeQuarter;
        // walking n -> cell: n passable, and a climb of more than 1 m needs a climbable cell
        if (passable[n] &&
            !(elevation_[cell] - elevation_[n] > 1 && terrain_[cell] != Terrain::kClimb))
          adjacent_[cell].push_back(n);
      }
    cover_[cell] = near_cover && Standable(strike, terrain_[cell]);
  }
  cost_.resize(size);
  for (int i = 0; i < size; ++i) {
    const Terrain t = terrain_[i];
    cost_[i] = t == Terrain::kDoorClosed ? 2 : (t == Terrain::kWater || t == Terrain::kFire) ? 3 : 1;
    if (t == Terrain::kDoorClosed) doors_.push_back(i);
  }
}

Walks::CoverTable& Walks::Covers(const GameDesc& g, const StrikeRules& strike,
                                 const std::vector<std::uint8_t>& opaque) {
  Use(g, strike);
  for (CoverTable& table : covers_)
    if (table.opaque == opaque) return table;
  if (covers_.size() >= 4) covers_.clear();  // bounded: a few door states at a time
  const auto size = static_cast<std::size_t>(width_) * height_;
  return covers_.emplace_back(CoverTable{opaque, std::vector<std::vector<std::int8_t>>(size), 0});
}

// _Walks.field: Dial's search toward ``target`` (steps cost 1 to 3).
const std::vector<int>& Walks::Single(int target, const std::vector<std::uint8_t>& doors) {
  auto key = std::make_pair(target, doors);
  auto found = single_.find(key);
  if (found != single_.end()) return found->second;
  if (single_.size() > 4096) single_.clear();
  std::vector<int> cost = cost_;
  for (std::size_t k = 0; k < doors_.size(); ++k) cost[doors_[k]] = doors[k] ? 2 : 1;
  std::vector<int> dist(cost.size(), kFar);
  dist[target] = 0;
  std::vector<std::vector<int>> buckets{{target}};
  for (std::size_t d = 0; d < buckets.size(); ++d)
    for (std::size_t k = 0; k < buckets[d].size(); ++k) {
      const int cell = buckets[d][k];
      if (dist[cell] != static_cast<int>(d)) continue;  // reached cheaper since
      for (int n : adjacent_[cell]) {
        const int nd = static_cast<int>(d) + cost[n];
        if (nd < dist[n]) {
          dist[n] = nd;
          if (buckets.size() <= static_cast<std::size_t>(nd)) buckets.resize(nd + 1);
          buckets[nd].push_back(n);
        }
      }
    }
  return single_.emplace(std::move(key), std::move(dist)).first->second;
}

const std::vector<int>& Walks::Field(const std::vector<int>& targets,
                                     const std::vector<std::uint8_t>& opaque) {
  std::vector<std::uint8_t> doors;
  doors.reserve(doors_.size());
  for (int d : doors_) doors.push_back(opaque[d]);
  if (!last_.empty() && last_key_.first == targets && last_key_.second == doors) return last_;
  std::vector<int> dist(static_cast<std::size_t>(width_) * height_, kFar);
  for (int t : targets) {
    const std::vector<int>& one = Single(t, doors);
    for (std::size_t i = 0; i < dist.size(); ++i) dist[i] = std::min(dist[i], one[i]);
  }
  last_key_ = {targets, std::move(doors)};
  last_ = std::move(dist);
  return last_;
}

// -- the board (board.py Board) -------------------------------------------------------------
Board::Board(const NativeCombat& c_, Exact& exact_, Walks& walks)
    : c(c_),
      g(c_.game()),
      s(c_.state()),
      strike(c_.strike_rules()),
      at(c_.game().attack),
      me(c_.decider()),
      mf(c_.state().fighters[c_.decider()]),
      exact(exact_),
      walks_(walks),
      covers_(walks.Covers(g, strike, s.opaque)) {
  exact.Use(strike);
  enemies = FoesOf(me);
  for (const Fighter& f : s.fighters) allies += f.standing() && f.side == mf.side;
  bool exits = false;
  for (std::uint8_t x : c.combat_rules().exits) exits |= x != 0;
  for (const kampf::VictoryRow& v : strike.victory) {
    if (v.kind == kampf::kVictoryVip && v.vip == me) is_protected = true;
    if (v.kind == kampf::kVictoryExit && v.side == mf.side && exits) exits_goal = true;
  }
}

bool Board::Enemy(int fi) const {
  return std::find(enemies.begin(), enemies.end(), fi) != enemies.end();
}

bool Board::Sight(int a, int b) const {
  return !c.lines().Blocked(std::span<const std::uint8_t>(s.opaque), a, b);
}

Cover Board::TerrainCover(int a, int b) const {
  std::vector<std::int8_t>& row = covers_.rows[a];
  if (row.empty()) {
    const std::size_t size = covers_.rows.size();
    if (++covers_.filled * size > kCoverBytes) {  // bounded on a large map: start over
      for (auto& r : covers_.rows) std::vector<std::int8_t>().swap(r);
      covers_.filled = 1;
    }
    row.assign(size, -1);
  }
  std::int8_t& level = row[b];
  if (level < 0)
    level = static_cast<std::int8_t>(
        c.lines().TerrainCover(std::span<const std::uint8_t>(s.opaque), a, b));
  return static_cast<Cover>(level);
}

int Board::CheckValue(int fi, int check, bool attack, bool reaction, bool defence) const {
  kampf::Parts parts;
  kampf::CheckParts(g, s.fighters[fi], fi, check, attack, reaction, defence, parts);
  return parts.Total();
}

// Board.walk_distance.
int Board::WalkDistance(int cell) {
  if (enemies.empty()) return kFar;
  if (!walk_) {
    std::vector<int> targets;
    for (int e : enemies) targets.push_back(s.fighters[e].pos);
    std::sort(targets.begin(), targets.end());
    walk_ = &walks_.Field(targets, s.opaque);
  }
  const int d = (*walk_)[cell];
  return d < kFar ? d : NearestEnemyDistance(cell) + 50;
}

// Board.nearest_enemy_distance (grid.py nearest).
int Board::NearestEnemyDistance(int cell) const {
  if (enemies.empty()) return 99;
  int best = kFar;
  for (int e : enemies) best = std::min(best, Dist(cell, s.fighters[e].pos));
  return best;
}

// Board.exit_distance.
int Board::ExitDistance(int cell) const {
  const std::vector<std::uint8_t>& exits = c.combat_rules().exits;
  int best = -1;
  for (std::size_t x = 0; x < exits.size(); ++x)
    if (exits[x]) {
      const int d = Dist(cell, static_cast<int>(x));
      if (best < 0 || d < best) best = d;
    }
  return best < 0 ? 0 : best;
}

int Board::DefenceValue(int t, int a, int wi) const {
  return DefenceValueOf(t, kampf::Mode::kWeapon, a, wi);
}

// estimates.py damage_profile: armour after the mode (damage.py armour_after_mode, D01,
// D02), the resistance (resistance_kind, D04, X32).
Profile Board::DamageProfile(int t, int bonus, int armour_mode, std::uint64_t forms,
                             int flat) const {
  const kampf::StrikeSpec& spec = strike.specs[t];
  const Fighter& target = s.fighters[t];
  const int armour = kampf::ArmourAfterMode(strike, spec.armour + target.armour_bonus, armour_mode);
  int factor = 0;
  if (forms & spec.immune) {
    factor = 1;
  } else {
    const bool resist = (forms & spec.resist) != 0, vuln = (forms & spec.vuln) != 0;
    factor = resist == vuln ? 0 : resist ? 2 : 3;
  }
  return Profile{bonus, armour, strike.armour_floor_zero, flat, factor, strike.resistance_up,
                 std::max(target.lp, 1)};
}

// estimates.py weapon_profile.
Profile Board::WeaponProfile(int a, int t, int wi) const {
  const kampf::StrikeWeapon& w = strike.specs[a].weapons[wi];
  const int flat = s.fighters[a].disarmed ? -strike.entwaffnen_nsc_penalty : 0;
  return DamageProfile(t, w.bonus, w.armour_mode, w.forms, flat);
}

int Board::ShotBase(int a, int t, int wi) const {
  const kampf::AttackWeapon& w = at.specs[a].weapons[wi];
  int pw = CheckValue(a, w.skill, true) + w.modifier;
  if (!Ranged(a, wi) && s.fighters[t].prone_bonus && at.niederwerfen_vs_melee)
    pw -= at.prone_malus;
  if (s.fighters[a].disarmed) pw -= at.entwaffnen_nsc_penalty;
  return pw;
}

std::pair<int, int> Board::AimKept(int a, int t) const {
  const Fighter& f = s.fighters[a];
  if (f.aim_target == t && f.aim_stacks)
    return {at.zielen_bonus * f.aim_stacks, at.zielen_qs_bonus * f.aim_stacks};
  return {0, 0};
}

std::optional<std::pair<int, int>> Board::WeaponAttackValue(int a, int t, int wi, int src) const {
  const kampf::Weapon& w = g.specs[a].weapons[wi];
  const Fighter& af = s.fighters[a];
  const Fighter& tf = s.fighters[t];
  const int pos = src < 0 ? af.pos : src;
  const std::optional<int> rm = RangeModifier(w, Dist(pos, tf.pos));
  if (!rm) return std::nullopt;
  if (src < 0) {
    if (!w.ranged && !Sight(pos, tf.pos)) return std::nullopt;
    kampf::Plan plan;
    kampf::PlanAttack(g, c.lines(), s, a, t, kampf::Mode::kWeapon, wi, plan);
    if (plan.cover.level == Cover::kFull) return std::nullopt;
    return std::make_pair(plan.parts.Total(), plan.aim_qs);
  }
  int pw = ShotBase(a, t, wi), aim_qs = 0;
  if (w.ranged) {
    Cover cover = TerrainCover(pos, tf.pos);  // Board.terrain_cover_at (R06)
    if (tf.prone() && cover == Cover::kHalf) cover = Cover::kThreeQuarter;
    if (cover == Cover::kFull) return std::nullopt;
    if (w.area_radius > 0 && at.area_cover_all) cover = Cover::kNone;  // C03, X26
    pw += ShotModifier(*rm, cover, tf.prone_bonus);
    if (pos == af.pos) {  // X03: Zielen is lost on moving
      const auto [aim_pw, qs] = AimKept(a, t);
      pw += aim_pw, aim_qs = qs;
    }
  } else if (!Sight(pos, tf.pos)) {
    return std::nullopt;
  }
  return std::make_pair(pw, aim_qs);
}

std::optional<Estimate> Board::WeaponEstimate(int a, int t, int wi, int src, bool aim,
                                              int pw_delta) {
  const auto av = WeaponAttackValue(a, t, wi, src);
  if (!av) return std::nullopt;
  auto [pw, aim_qs] = *av;
  const Fighter& af = s.fighters[a];
  if (aim && Ranged(a, wi)) {
    const bool kept = af.aim_target == t && (src < 0 || src == af.pos);
    const int stacks = kept ? af.aim_stacks : 0;
    if (stacks < g.options.zielen_max_stacks) {  // X03: one Zielen more, where it stacks
      pw += at.zielen_bonus;
      aim_qs += at.zielen_qs_bonus;
    }
  }
  return exact.EstimateOf(pw + pw_delta, DefenceValue(t, a, wi), WeaponProfile(a, t, wi), aim_qs);
}

std::optional<Estimate> Board::HackEstimate(int a, int t, int hi, int pw_delta) {
  if (Dist(s.fighters[a].pos, s.fighters[t].pos) > g.specs[a].hacks[hi].range_m) return std::nullopt;
  kampf::Plan plan;
  kampf::PlanAttack(g, c.lines(), s, a, t, kampf::Mode::kHack, hi, plan);
  if (plan.cover.level == Cover::kFull) return std::nullopt;
  const int pw = plan.parts.Total();
  const int dpw = DefenceValueOf(t, kampf::Mode::kHack, a, hi);
  const kampf::StrikeHack& h = strike.specs[a].hacks[hi];
  if (!h.deals_damage) return Estimate{exact.OddsOf(pw + pw_delta, dpw).hit, 0.0, 0.0};
  return exact.EstimateOf(pw + pw_delta, dpw, DamageProfile(t, h.bonus, h.armour_mode, h.forms, 0));
}

Cover Board::CoverNow(int a, int t) const {
  return kampf::CoverAgainst(g, c.lines(), s, a, t, true, false).level;
}

double Board::Incoming(int e, int wi, int modifier) {
  const kampf::AttackWeapon& w = at.specs[e].weapons[wi];
  const int pw = CheckValue(e, w.skill, true) + w.modifier;
  return exact.EstimateOf(pw + modifier, DefenceValue(me, e, wi), WeaponProfile(e, me, wi))
      .damage;
}

double Board::MeleeIncoming(int e) {
  double hit = 0.0;
  const kampf::Spec& spec = g.specs[e];
  for (int wi = 0; wi < spec.n_weapons; ++wi)
    if (!spec.weapons[wi].ranged && kampf::WeaponUsable(spec, s.fighters[e], wi))
      hit = std::max(hit, Incoming(e, wi, 0));
  return hit;
}

}  // namespace cwenv::doctrine
