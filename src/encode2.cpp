// Encoding 2's entity rows, global row and coarse map (encode2.hpp), function by function
// after cwenv/envs/entities.py and cwenv/envs/observe.py.
#include "encode2.hpp"

#include <algorithm>
#include <cstdlib>

namespace cwenv::encode2 {

namespace {

constexpr int kCoarseBlock = 3;  // entities.py COARSE_BLOCK
constexpr int kCoarseSide = 9;   // entities.py COARSE_SIDE
constexpr int kCoarseRadius = kCoarseBlock * kCoarseSide / 2;
constexpr int kMapChannels = 15;
// entities.py MAP_CHANNELS indices of the channels that move.
constexpr int kDoorClosed = 8, kDoorOpen = 9, kElevation = 10, kAlly = 11, kEnemy = 12,
              kNeutral = 13, kFallen = 14;

// A row writer: each value stored as float32, as numpy stores a tuple of Python numbers.
struct Out {
  std::span<float> row;
  std::size_t at = 0;
  void operator()(double x) { row[at++] = static_cast<float>(x); }
};

float Clip(float x, float low, float high) { return x < low ? low : (x > high ? high : x); }

int X(const GameDesc& g, int cell) { return cell % g.width; }
int Y(const GameDesc& g, int cell) { return cell / g.width; }

// observe.py Observer._threat (A01): the average damage of g's best usable weapon that can
// reach me this turn, as a fraction of my current LP (at least 1).
double Threat(const View& v, int g, int me, int dist, bool sight) {
  double best = 0.0;
  const auto& rows = v.t.weapons[g];
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const WeaponRow& w = rows[k];
    const bool reaches = g_encode_fault == EncodeFault::kThreatEdge ? dist < w.reach
                                                                      : dist <= w.reach;
    if (w.damage <= best || !((w.melee || sight) ? reaches : false)) continue;
    if (kampf::WeaponUsable(v.g.specs[g], v.s.fighters[g], static_cast<int>(k))) best = w.damage;
  }
  return std::min(1.0, best / std::max(1, v.s.fighters[me].lp));
}

// fighter.py melee_reach (R04) of fighter ``j``.
int MeleeReach(const View& v, int j) {
  return kampf::MeleeReach(v.g.specs[j], v.s.fighters[j]);
}

}  // namespace

void SightMemo::Refresh(const State& s) {
  std::vector<int> key;
  key.reserve(s.fighters.size() * 2);
  for (const Fighter& f : s.fighters)
    key.push_back(f.pos), key.push_back(f.on_map() | f.dead << 1 | f.down << 2 | f.prone() << 3);
  if (key == fighters_ && s.opaque == opaque_) return;
  fighters_ = std::move(key), opaque_ = s.opaque;
  n_ = static_cast<int>(s.fighters.size());
  known_.assign(static_cast<std::size_t>(n_) * n_, 0);
  seen_.resize(known_.size());
}

Sight SightAndCover(const View& v, int me, int j) {  // observe.py _sight_and_cover (C01-C04)
  const Fighter& f = v.s.fighters[me];
  const Fighter& g = v.s.fighters[j];
  if (!g.on_map() || g.dead || v.lines.Blocked(v.s.opaque, f.pos, g.pos)) return {false, 0, 0};
  const double theirs = static_cast<int>(kampf::RangedCover(v.g, v.lines, v.s, me, j)) / 3.0;
  const double mine = static_cast<int>(kampf::RangedCover(v.g, v.lines, v.s, j, me)) / 3.0;
  return {true, theirs, mine};
}

void EntityRow(const View& v, const Decision& d, int me_i, int j, std::span<float> row) {
  const Fighter& me = v.s.fighters[me_i];
  const Fighter& g = v.s.fighters[j];
  const kampf::Spec& spec = v.g.specs[j];
  const Tables& t = v.t;
  const Extra& x = v.extra[j];
  const int dx = X(v.g, g.pos) - X(v.g, me.pos), dy = Y(v.g, g.pos) - Y(v.g, me.pos);
  const int dist = std::max(std::abs(dx), std::abs(dy));
  const bool is_self = j == me_i;
  Sight seen{true, 0.0, 0.0};
  if (!is_self) {
    const Sight* known = v.memo.Find(me_i, j);
    seen = known ? *known : SightAndCover(v, me_i, j);
    if (!known) v.memo.Put(me_i, j, seen);
  }
  const bool standing = g.standing();
  const bool hostile = g.side != me.side;
  const bool danger = standing && !is_self && (v.g.options.friendly_fire || hostile);
  const int drawn = 0 <= g.drawn && g.drawn < spec.n_weapons ? g.drawn : -1;
  double d_range = 0.0, d_dmg = 0.0, d_ammo = 0.0;
  if (drawn >= 0) {
    d_range = t.weapons[j][drawn].range30, d_dmg = t.weapons[j][drawn].damage20;
    const int magazine = spec.weapons[drawn].magazine;
    d_ammo = magazine > 0 ? static_cast<double>(g.ammo[drawn]) / magazine : 1.0;
  }
  bool has_melee = false, has_ranged = false;
  int usable = 0;
  for (int k = 0; k < spec.n_weapons; ++k) {
    (spec.weapons[k].ranged ? has_ranged : has_melee) = true;
    usable += kampf::WeaponUsable(spec, g, k);
  }
  const double lp_max = t.lp_max[j];
  const auto& st = t.other_static[j];
  Out o{row};
  o(1.0), o(is_self), o(!is_self && !hostile), o(hostile && g.side != kampf::kNeutral);
  o(g.side == kampf::kNeutral), o(g.on_map()), o(standing), o(g.down), o(g.dead), o(g.fled);
  o(g.prone()), o(g.lp / lp_max), o(g.lp / 60.0), o(lp_max / 60);
  for (int b = 0; b < t.n_conditions; ++b) o(g.conditions >> b & 1);
  o(x.zehrend / 3.0), o(x.reactions / 3.0), o(g.mumm / 5.0);
  o(x.mumm_max ? static_cast<double>(g.mumm) / x.mumm_max : 0.0);
  o((is_self ? me.aim_stacks : g.aim_stacks) / 3.0);
  o(me.aim_target == j && !is_self), o(d.turn_fighter == j), o(d.context == j);
  o(dx / t.scale_map), o(dy / t.scale_map), o(dist / t.scale_map);
  o((v.g.elevation[g.pos] - v.g.elevation[me.pos]) / 10.0);
  o(seen.sight), o(seen.theirs), o(seen.mine);
  o(st[2]), o(st[3]), o(st[4]), o(st[0]), o(st[1]);
  o(has_melee), o(has_ranged), o(d_range), o(d_dmg), o(d_ammo);
  o(static_cast<double>(usable) / t.max_weapons);
  o(danger && dist <= MeleeReach(v, j));
  o(standing && !is_self && dist <= MeleeReach(v, me_i));
  o(danger ? Threat(v, j, me_i, dist, seen.sight) : 0.0);
  // entities.py clips to entity_bounds: [-1, 1] for the LP fraction, dx, dy, height.
  const std::size_t lp_fraction = 11, cond_end = 14 + t.n_conditions;
  for (std::size_t i = 0; i < o.at; ++i) {
    const bool signed_ = i == lp_fraction || i == cond_end + 8 || i == cond_end + 9 ||
                         i == cond_end + 11;
    row[i] = Clip(row[i], signed_ ? -1.0f : 0.0f, 1.0f);
  }
}

void GlobalRow(const View& v, const Decision& d, int me_i, std::span<const int> rows, int n_allies,
               std::span<const ActRow> legal, int k, std::span<float> out) {
  const Fighter& me = v.s.fighters[me_i];
  const kampf::Spec& spec = v.g.specs[me_i];
  const Tables& t = v.t;
  std::fill(out.begin(), out.end(), 0.0f);
  if (d.kind >= 0) {
    out[d.kind] = 1.0f;
    if (d.has_total) out[t.n_decisions + 1] = static_cast<float>(d.total / 30.0);
  } else {
    out[t.n_decisions] = 1.0f;
  }
  int reach = 0;
  bool handlung = false;
  for (const ActRow& a : legal) {
    if (a.kind == 1) reach = std::max(reach, v.g.Distance(me.pos, a.cell));  // MOVE
    handlung = handlung || (t.handlung_kinds >> a.kind & 1);
  }
  int allies_standing = 0, others_standing = 0;
  const int n_others = static_cast<int>(rows.size()) - 1 - n_allies;
  for (std::size_t r = 1; r < rows.size(); ++r)
    (static_cast<int>(r) <= n_allies ? allies_standing : others_standing) +=
        v.s.fighters[rows[r]].standing();
  int cyber = 0, ready = 0, loading = 0;
  for (int i = 0; i < spec.n_cyber; ++i) cyber += me.cyber_uses[i];
  for (int i = 0; i < spec.n_hacks; ++i) {
    const int p = me.upload_progress[i], upload = spec.hacks[i].upload;
    ready += p >= upload;
    loading += 0 < p && p < upload;
  }
  const int limit = t.round_limit;
  Out o{out, static_cast<std::size_t>(t.n_decisions + 2)};
  o(d.turn_fighter == me_i), o(limit ? static_cast<double>(d.round) / limit : 0.0);
  o(d.round / 50.0), o(limit > 0), o(handlung);
  o(reach / std::max(1.0, static_cast<double>(spec.movement)));
  o(static_cast<double>(legal.size()) / k);
  o(n_allies / 15.0), o(n_others / 15.0), o(allies_standing / 15.0), o(others_standing / 15.0);
  o(t.exit_distance[me.pos] / t.scale_map), o(t.has_exits), o(me.extra_action_used);
  o(me.n_items / 6.0), o(me.backpack / 6.0), o(cyber / 6.0), o(ready / 6.0), o(loading / 6.0);
  for (float& x : out) x = Clip(x, 0.0f, 1.0f);
}

void MapRows(const View& v, int me_i, std::span<const float> terrain, std::span<float> out) {
  constexpr int side = kCoarseBlock * kCoarseSide, plane = kCoarseSide * kCoarseSide;
  const Fighter& me = v.s.fighters[me_i];
  const int x0 = X(v.g, me.pos) - kCoarseRadius, y0 = Y(v.g, me.pos) - kCoarseRadius;
  std::copy(terrain.begin(), terrain.end(), out.begin());
  std::array<float, kMapChannels * plane> moved{};
  auto add = [&](int cell, int channel, float n) {
    const int px = X(v.g, cell) - x0, py = Y(v.g, cell) - y0;
    if (0 <= px && px < side && 0 <= py && py < side)
      moved[channel * plane + py / kCoarseBlock * kCoarseSide + px / kCoarseBlock] += n;
  };
  for (int cell : v.t.doors) add(cell, v.s.solid[cell] ? kDoorClosed : kDoorOpen, 1.0f);
  for (std::size_t j = 0; j < v.s.fighters.size(); ++j) {
    const Fighter& g = v.s.fighters[j];
    if (static_cast<int>(j) == me_i || !g.on_map()) continue;
    int channel = kEnemy;
    if (!g.standing()) channel = kFallen;
    else if (g.side == me.side) channel = kAlly;
    else if (g.side == kampf::kNeutral) channel = kNeutral;
    add(g.pos, channel, 3.0f);  // the block's mean: fighters / 3
  }
  constexpr float cells = kCoarseBlock * kCoarseBlock;  // the block's mean, in float32
  for (int channel : {kDoorClosed, kDoorOpen, kAlly, kEnemy, kNeutral, kFallen})
    for (int i = 0; i < plane; ++i) out[channel * plane + i] = moved[channel * plane + i] / cells;
  for (int channel = 0; channel < kMapChannels; ++channel)
    for (int i = 0; i < plane; ++i) {
      float& x = out[channel * plane + i];
      x = Clip(x, channel == kElevation ? -1.0f : 0.0f, 1.0f);
    }
}

}  // namespace cwenv::encode2
