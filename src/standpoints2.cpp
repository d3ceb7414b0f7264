// Encoding 2's candidate standpoints (encode2.hpp Standpoints), after
// cwenv/envs/candidates.py CandidateEncoder._standpoints and _cover_levels.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <unordered_map>

#include "encode2.hpp"

namespace cwenv::encode2 {

namespace {

constexpr int kSummary = 7;  // dest_cover_min/3 … dest_in_enemy_melee_reach/15
// candidates.py _NO_FOES: full cover, none in sight, far away.
constexpr std::array<double, kSummary> kNoFoes = {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0};

}  // namespace

void CoverCache::Refresh(const State& s) {
  if (s.opaque == opaque_) return;
  opaque_ = s.opaque;
  by_src_.assign(s.opaque.size(), {});
}

// candidates.py _cover_levels (C01, C02; FULL where sight is blocked).
int CoverCache::Level(const View& v, int src, int cell) {
  std::vector<std::int8_t>& known = by_src_[src];
  if (known.empty()) known.assign(v.s.opaque.size(), -1);
  std::int8_t& level = known[cell];
  if (level < 0) level = static_cast<std::int8_t>(v.lines.TerrainCover(v.s.opaque, src, cell));
  return level;
}

void Standpoints(const View& v, int me_i, std::span<const int> rows,
                 std::span<const std::int64_t> stand, CoverCache& covers, int entities,
                 std::span<float> vs, int width, int col0, std::span<float> summary) {
  const Fighter& me = v.s.fighters[me_i];
  const int w = v.g.width;
  std::vector<int> seen, foes;  // entity rows on the map; of them, the standing enemies
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const Fighter& g = v.s.fighters[rows[r]];
    if (!g.on_map()) continue;
    seen.push_back(static_cast<int>(r));
    if (g.standing() && g.side != me.side) foes.push_back(static_cast<int>(r));
  }
  std::vector<int> reaches;
  for (int r : foes)  // R04
    reaches.push_back(kampf::MeleeReach(v.g.specs[rows[r]], v.s.fighters[rows[r]]));
  std::unordered_map<std::int64_t, std::size_t> done;  // standpoint -> its first candidate
  const std::size_t vs_row = static_cast<std::size_t>(entities) * 2;
  for (std::size_t i = 0; i < stand.size(); ++i) {
    float* out_vs = vs.data() + i * vs_row;
    float* out_sum = summary.data() + i * width + col0;
    auto [at, fresh] = done.emplace(stand[i], i);
    if (!fresh) {  // the same standpoint: the same numbers
      std::copy_n(vs.data() + at->second * vs_row, vs_row, out_vs);
      std::copy_n(summary.data() + at->second * width + col0, kSummary, out_sum);
      continue;
    }
    const int spot = static_cast<int>(stand[i]);
    std::fill_n(out_vs, vs_row, 0.0f);
    for (int r : seen) {
      const int src = v.s.fighters[rows[r]].pos;
      int metres = std::max(std::abs(spot % w - src % w), std::abs(spot / w - src / w));
      if (g_encode_fault == EncodeFault::kVsDistance && metres == 1) metres = 2;
      out_vs[r * 2] = static_cast<float>(covers.Level(v, src, spot) / 3.0);
      out_vs[r * 2 + 1] = static_cast<float>(metres / v.t.scale_map);
    }
    std::array<double, kSummary> sum = kNoFoes;
    if (!foes.empty()) {
      // Float64 of the float32 entries, summed foe by foe in roster order (candidates.py).
      double cmin = 0, cmax = 0, csum = 0, dmin = 0, dsum = 0;
      int in_sight = 0, in_reach = 0;
      for (std::size_t k = 0; k < foes.size(); ++k) {
        const double cover = out_vs[foes[k] * 2], ds = out_vs[foes[k] * 2 + 1];
        const int src = v.s.fighters[rows[foes[k]]].pos;
        const int metres = std::max(std::abs(spot % w - src % w), std::abs(spot / w - src / w));
        cmin = k ? std::min(cmin, cover) : cover, cmax = k ? std::max(cmax, cover) : cover;
        dmin = k ? std::min(dmin, ds) : ds;
        csum = k ? csum + cover : cover, dsum = k ? dsum + ds : ds;
        in_sight += cover < 1.0;
        in_reach += metres <= reaches[k];
      }
      const double n = static_cast<double>(foes.size());
      sum = {cmin, csum / n, cmax, in_sight / 15.0, dmin, dsum / n, in_reach / 15.0};
    }
    for (int c = 0; c < kSummary; ++c) out_sum[c] = static_cast<float>(sum[c]);
  }
}

}  // namespace cwenv::encode2
