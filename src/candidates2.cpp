// Encoding 2's candidate rows but the odds (encode2.hpp CandidateRows), after
// cwenv/envs/candidates.py CandidateEncoder.encode and _what.
#include <algorithm>
#include <cstdlib>

#include "encode2.hpp"

namespace cwenv::encode2 {

namespace {

// candidates.py CANDIDATE_FEATURES columns.
enum Col : int {
  kValid = 0, kHandlung, kHasTarget, kTargetSelf, kTargetAlly, kTargetEnemy, kHasCell,
  kCellDx, kCellDy, kCellDistance, kCellElevation, kDestCoverMin, kDestExit = 18, kArg,
  kMummFlag, kMummCost, kMummCostFraction, kWeaponMelee, kWeaponRanged, kWeaponArea,
  kWeaponRange, kWeaponDamage, kWeaponAmmo, kWeaponDrawn, kWidth = 38,
};

bool In(std::uint64_t set, int kind) { return set >> kind & 1; }

}  // namespace

bool CandidateRows(const View& v, const CandidateTables& ct, int me_i, std::span<const int> rows,
                   std::span<const ActRow> acts, CoverCache& covers, int entities,
                   std::span<float> feats, std::span<float> kind, std::span<float> target,
                   std::span<float> vs, std::vector<int>& odds) {
  const Fighter& me = v.s.fighters[me_i];
  const kampf::Spec& spec = v.g.specs[me_i];
  const int n = static_cast<int>(acts.size()), w = v.g.width;
  for (const ActRow& a : acts)  // the kind one-hot's capacity (MAX_ACTION_KINDS = 64)
    if (a.kind < 0 || a.kind >= 64 || ct.prices[a.kind * 2 + (a.mumm != 0)] < 0) return false;
  std::vector<int> row_of(v.s.fighters.size(), -1);
  for (std::size_t r = 0; r < rows.size(); ++r) row_of[rows[r]] = static_cast<int>(r);
  std::vector<std::int64_t> stand(n);
  for (int i = 0; i < n; ++i) {
    const ActRow& a = acts[i];
    kind[i] = static_cast<float>(a.kind);
    if (a.target >= 0) target[i] = static_cast<float>(row_of[a.target]);
    stand[i] = In(ct.cell_move, a.kind) ? a.cell : me.pos;  // MOVE, SCHWIERIG: the cell
  }
  Standpoints(v, me_i, rows, stand, covers, entities, vs, kWidth, kDestCoverMin, feats);
  const double movement = std::max(1, spec.movement);
  for (int i = 0; i < n; ++i) {
    const ActRow& a = acts[i];
    float* f = feats.data() + static_cast<std::size_t>(i) * kWidth;
    auto put = [f](int col, double x) { f[col] = static_cast<float>(x); };
    put(kValid, 1.0);
    put(kHandlung, In(v.t.handlung_kinds, a.kind));
    if (a.target >= 0) {
      const int side = v.s.fighters[a.target].side;
      put(kHasTarget, 1.0);
      put(kTargetSelf, a.target == me_i);
      put(kTargetAlly, a.target != me_i && side == me.side);
      put(kTargetEnemy, side != me.side && side != kampf::kNeutral);
    }
    if (a.cell >= 0) {  // the cell relative to the decider (B01 metres)
      const int dx = a.cell % w - me.pos % w, dy = a.cell / w - me.pos / w;
      put(kHasCell, 1.0);
      put(kCellDx, dx / v.t.scale_map);
      put(kCellDy, dy / v.t.scale_map);
      put(kCellDistance, std::max(std::abs(dx), std::abs(dy)) / movement);
      put(kCellElevation, (v.g.elevation[a.cell] - v.g.elevation[me.pos]) / 10.0);
    }
    put(kDestExit, v.t.exit_distance[stand[i]] / v.t.scale_map);
    put(kArg, std::max(a.arg, 0) / 16.0);
    put(kMummFlag, a.mumm);
    const int cost = ct.prices[a.kind * 2 + (a.mumm != 0)];  // M01-M09
    put(kMummCost, cost / 5.0);
    put(kMummCostFraction, me.mumm ? static_cast<double>(cost) / me.mumm : cost > 0);
    if (In(ct.weapon_arg, a.kind) && a.arg >= 0 && a.arg < spec.n_weapons) {  // X12 via tables
      const kampf::Weapon& wpn = spec.weapons[a.arg];
      const WeaponRow& row = v.t.weapons[me_i][a.arg];
      put(kWeaponMelee, !wpn.ranged);
      put(kWeaponRanged, wpn.ranged);
      put(kWeaponArea, wpn.area_radius > 0);
      put(kWeaponRange, row.range30);
      put(kWeaponDamage, row.damage20);
      put(kWeaponAmmo,
          wpn.magazine > 0 ? static_cast<double>(me.ammo[a.arg]) / wpn.magazine : 1.0);
      put(kWeaponDrawn, a.arg == me.drawn);
    }
    if (In(ct.odds, a.kind)) odds.push_back(i);
  }
  return true;
}

}  // namespace cwenv::encode2
