// agents/native/estimates.hpp: each function names its twin in agents/exact.py or
// agents/estimates.py and keeps its order of operations.
#include "estimates.hpp"

#include <algorithm>

namespace cwenv::doctrine {

// The module caches of exact.py and estimates.py are keyed by the options object; here
// they are dropped when the rules they were computed under differ.
void Exact::Use(const StrikeRules& strike) {
  const ProbeRules& r = strike.probe;
  std::vector<int> sig = {r.volltreffer_qs,           r.grosser_wurf_highest_roll,
                          r.difference_raw,           r.volltreffer_wins_contest,
                          r.lone_winner_difference,   r.tie_own_roll,
                          strike.volltreffer_defendable, strike.table_low};
  for (const kampf::TableRow& row : strike.crits) sig.push_back(row.extra);
  if (sig == signature_) return;
  *this = Exact();
  signature_ = std::move(sig);
  probe_ = r;
  volltreffer_defendable_ = strike.volltreffer_defendable;
  table_low_ = strike.table_low;
  for (const kampf::TableRow& row : strike.crits) crit_extra_.push_back(row.extra);
}

// exact.py _classes: the 100 rolls grouped by (success, qs, volltreffer, patzer, total),
// in the order each group is first met.
const std::vector<Exact::Class>& Exact::Classes(int probenwert) {
  auto found = classes_.find(probenwert);
  if (found != classes_.end()) return found->second;
  std::vector<Class> groups;
  for (int a = 1; a <= 10; ++a)
    for (int b = 1; b <= 10; ++b) {
      const Probe r = kampf::ResolveProbe(probe_, probenwert, a, b);
      bool met = false;
      for (Class& g : groups)
        if (g.rep.success == r.success && g.rep.qs == r.qs &&
            g.rep.volltreffer == r.volltreffer && g.rep.patzer == r.patzer &&
            g.rep.total() == r.total()) {
          ++g.n, met = true;
          break;
        }
      if (!met) groups.push_back({r, 1});
    }
  return classes_.emplace(probenwert, std::move(groups)).first->second;
}

// exact.py success_chance: probe_odds' success, a count over 100 rolls.
double Exact::SuccessChance(int probenwert) {
  auto found = success_.find(probenwert);
  if (found != success_.end()) return found->second;
  int n = 0;  // probe_odds' success: the rolls of the 100 that succeed (P01, P04)
  for (int a = 1; a <= 10; ++a)
    for (int b = 1; b <= 10; ++b) n += kampf::ResolveProbe(probe_, probenwert, a, b).success;
  const double p = static_cast<double>(n) / 100.0;
  success_.emplace(probenwert, p);
  return p;
}

// exact.py _count_odds.
const Odds& Exact::OddsOf(int attack, int defence) {
  const std::array<int, 2> key{attack, defence};
  auto found = odds_.find(key);
  if (found != odds_.end()) return found->second;
  if (odds_.size() > 100'000) odds_.clear();  // bounded, as exact.py's (no caller holds one)
  const std::vector<Class> attacks = Classes(attack);
  const std::vector<Class> defences =
      defence == kNoDefence ? std::vector<Class>{} : Classes(defence);
  long long hit = 0, volltreffer = 0, patzer = 0;
  std::vector<std::pair<int, long long>> qs;  // a dictionary's order: first met first
  const auto add = [&qs](int k, long long n) {
    for (auto& [key, v] : qs)
      if (key == k) {
        v += n;
        return;
      }
    qs.emplace_back(k, n);
  };
  for (const Class& a : attacks) {
    const long long na = a.n;
    if (!a.rep.success) {
      if (a.rep.patzer) patzer += na * 100;
      continue;
    }
    if (a.rep.volltreffer) volltreffer += na * 100;
    if (defences.empty() || (a.rep.volltreffer && !volltreffer_defendable_)) {
      hit += na * 100;
      add(a.rep.qs, na * 100);
      continue;
    }
    for (const Class& d : defences) {
      const int k = kampf::HitQs(probe_, a.rep, d.rep);
      if (k >= 0) {
        hit += na * d.n;
        add(k, na * d.n);
      }
    }
  }
  const double unit = 1.0 / 10'000;
  Odds o;
  o.hit = static_cast<double>(hit) * unit;
  for (const auto& [k, v] : qs) o.qs.emplace_back(k, static_cast<double>(v) * unit);
  o.volltreffer = static_cast<double>(volltreffer) * unit;
  o.patzer = static_cast<double>(patzer) * unit;
  return odds_.emplace(key, std::move(o)).first->second;
}

// estimates.py _damage_sums: the distribution of ``dice`` W10 each + ``offset`` (at least
// 0 each when ``floor``), by sum from ``low`` up (the dictionary's order: the faces are
// consecutive, so each sum is first met in rising order).
const std::vector<double>& Exact::Sums(int dice, int offset, bool floor, int& low) {
  const std::array<int, 3> key{dice, offset, floor};
  auto found = sums_.find(key);
  if (found != sums_.end()) {
    low = found->second.first;
    return found->second.second;
  }
  std::array<int, 10> faces{};
  for (int r = 1; r <= 10; ++r) faces[r - 1] = floor ? std::max(r + offset, 0) : r + offset;
  std::vector<double> dist{1.0};
  int lo = 0;
  for (int i = 0; i < std::max(dice, 0); ++i) {
    const int next_lo = lo + faces.front();
    std::vector<double> next(dist.size() + faces.back() - faces.front(), 0.0);
    for (std::size_t s = 0; s < dist.size(); ++s)
      for (int v : faces) next[s + v - faces.front()] += dist[s] / 10;
    dist = std::move(next), lo = next_lo;
  }
  auto& kept = sums_[key];
  kept = {lo, std::move(dist)};
  low = lo;
  return kept.second;
}

// estimates.py damage_stats (A06, X08, D04, X32).
std::pair<double, double> Exact::Stats(const Profile& p, int qs) {
  if (qs <= 0) return {0.0, 0.0};  // DamageProfile.stats
  const auto pk = p.Key();
  const std::array<int, 8> key{pk[0], pk[1], pk[2], pk[3], pk[4], pk[5], pk[6], qs};
  auto found = stats_.find(key);
  if (found != stats_.end()) return found->second;
  if (stats_.size() > 200'000) stats_.clear();
  int low = 0;
  const std::vector<double>& sums = Sums(qs, p.bonus - p.armour, p.floor, low);
  double mean = 0.0, ko = 0.0;
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const double pr = sums[i];
    int total = std::max(low + static_cast<int>(i) + p.flat, 0);
    if (p.factor == 1) {
      total = 0;
    } else if (p.factor == 2) {
      total = p.up ? (total + 1) / 2 : total / 2;
    } else if (p.factor == 3) {
      total = p.up ? (total * 3 + 1) / 2 : total * 3 / 2;
    }
    mean += pr * total;
    if (total >= p.lp) ko += pr;
  }
  return stats_[key] = {mean, ko};
}

// estimates.py crit_extra_dice (A07): 2W10 - QS read on the Volltreffer table.
double Exact::CritExtraDice(int qs) {
  auto found = crit_.find(qs);
  if (found != crit_.end()) return found->second;
  int sum = 0;
  const int rows = static_cast<int>(crit_extra_.size());
  for (int a = 1; a <= 10; ++a)
    for (int b = 1; b <= 10; ++b) {
      const int i = a + b - qs - table_low_;
      sum += crit_extra_[i < 0 ? 0 : std::min(i, rows - 1)];
    }
  return crit_[qs] = static_cast<double>(sum) / 100;
}

// estimates.py estimate and _estimate.
Estimate Exact::EstimateOf(int pw, int dpw, const Profile& p, int aim_qs) {
  const auto pk = p.Key();
  const std::array<int, 10> key{pk[0], pk[1], pk[2], pk[3], pk[4], pk[5], pk[6], pw, dpw, aim_qs};
  auto found = estimates_.find(key);
  if (found != estimates_.end()) return found->second;
  if (estimates_.size() > 200'000) estimates_.clear();  // bounded, as estimates.py's
  const Odds o = OddsOf(pw, dpw);
  double damage = 0.0, ko = 0.0;
  for (const auto& [k, pr] : o.qs) {
    const auto [mean, pko] = Stats(p, k + aim_qs);
    damage += pr * mean;
    ko += pr * pko;
  }
  const double hit = o.hit;
  if (o.volltreffer != 0.0 && hit > 0) {
    const double through = std::min(1.0, hit / std::max(SuccessChance(pw), 1e-9));
    int top = o.qs.front().first;
    for (const auto& [k, pr] : o.qs) top = std::max(top, k);
    damage += o.volltreffer * through * CritExtraDice(top) * Stats(p, 1).first;
  }
  return estimates_[key] = Estimate{hit, damage, ko};
}

double Exact::DefendedLoss(const Probe& attack, int defence, const std::vector<double>& losses) {
  double total = 0.0;
  const int top = static_cast<int>(losses.size()) - 1;
  for (const Class& r : Classes(defence)) {
    const int k = kampf::HitQs(probe_, attack, r.rep);
    if (k >= 0) total += r.n * losses[std::min(k, top)];
  }
  return total / 100;
}

double Exact::LossOf(const Probe& attack, const Probe& d, const std::vector<double>& losses) const {
  const int qs = kampf::HitQs(probe_, attack, d);
  return qs < 0 ? 0.0 : losses[std::min(qs, static_cast<int>(losses.size()) - 1)];
}

double Exact::ExpectedQs(int probenwert) const {
  int sum = 0;
  for (int a = 1; a <= 10; ++a)
    for (int b = 1; b <= 10; ++b) sum += kampf::ResolveProbe(probe_, probenwert, a, b).qs;
  return static_cast<double>(sum) / 100;
}

}  // namespace cwenv::doctrine
