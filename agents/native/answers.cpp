// The Taktiker's twin answers the prompts (issue #16): the twins of agents/prompts.py
// answer_prompt and its handlers and agents/losses.py (what a rolled attack would cost),
// each function naming its twin and keeping its order of operations; the Mumm around a
// check is spends.cpp. What a prompt is about comes from the frame that asks it (the
// core's stack), as the Python agent reads it from the decision's payload.
#include "answers.hpp"

#include <tuple>
#include <variant>

namespace cwenv::doctrine {

// losses.py attack_on_me: the attack a DEFEND or NIEDERWERFEN answers.
AttackRef Answers::AttackOnMe() const {
  const kampf::AttackF& a = std::get<kampf::AttackF>(Top());
  const bool rolled = *b.c.decision() == kampf::Asked::kDefend;
  return {a.attacker, b.me, a.mode, a.index, rolled, a.attack, a.aim_qs};
}

// losses.py loss_table: the expected loss to me per QS 0..MAX_QS of a hit.
std::vector<double> Answers::LossTable(const AttackRef& info) {
  std::vector<double> out(kMaxQs + 1, 0.0);
  if (info.mode == Mode::kManeuver) {
    const double worth = m.ManeuverWorth(info.attacker, b.me, info.index);
    std::fill(out.begin() + 1, out.end(), worth);
    return out;
  }
  Profile prof;
  double extra = 0.0;
  if (info.mode == Mode::kHack) {
    const kampf::StrikeHack& h = b.strike.specs[info.attacker].hacks[info.index];
    prof = b.DamageProfile(b.me, h.bonus, h.armour_mode, h.forms, 0);
    if (h.condition >= 0)
      extra = b.ConditionGain(b.me, h.condition, m.cfg.condition_horizon, m.cfg.mumm_value);
  } else {
    prof = b.WeaponProfile(info.attacker, b.me, info.index);
  }
  double crit = 0.0;
  if (info.rolled && info.roll.volltreffer)
    crit = b.exact.CritExtraDice(info.roll.qs) * b.exact.Stats(prof, 1).first;
  for (int k = 1; k <= kMaxQs; ++k) {
    const auto [mean, ko] = b.exact.Stats(prof, k + info.aim_qs);
    out[k] = mean + m.cfg.ko_bonus * ko + crit + extra;
  }
  return out;
}

// prompts.py _defend and defend_gains (A02-A04, M05).
long Answers::Defend() {
  const AttackRef info = AttackOnMe();
  const std::vector<double> losses = LossTable(info);
  const double undefended = losses[std::min(info.roll.qs, kMaxQs)];
  long best = -1;
  double best_gain = 0.0;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const PromptAct& a = legal[i];
    double gain;
    if (a.kind == PromptKind::kNoDefence) {
      gain = 0.0;
    } else if (a.kind == PromptKind::kDefend) {
      const int dpw = b.CheckValue(b.me, a.arg, false, true, true);
      gain = undefended - b.exact.DefendedLoss(info.roll, dpw, losses) - CostOf(a);
    } else {
      continue;
    }
    if (gain > best_gain) best = static_cast<long>(i), best_gain = gain;
  }
  return best;
}

// prompts.py _niederwerfen (R06, X23).
long Answers::Niederwerfen() {
  const long drop = First(PromptKind::kDropProne);
  const AttackRef info = AttackOnMe();
  if (drop < 0 || info.mode != Mode::kWeapon) return -1;
  const auto now = b.WeaponEstimate(info.attacker, b.me, info.index);
  if (!now) return -1;
  const Cover cover = b.CoverNow(info.attacker, b.me);
  if (cover == Cover::kThreeQuarter && !b.g.options.prone_three_quarter_to_full) return -1;
  double after = 0.0;
  if (cover != Cover::kThreeQuarter) {
    const auto prone = b.WeaponEstimate(info.attacker, b.me, info.index, -1, false, -2);
    after = prone ? prone->Value(m.cfg.ko_bonus) : 0.0;
  }
  int near = 0;
  for (int e : b.enemies) near += b.Dist(b.s.fighters[e].pos, b.mf.pos) <= 2;
  const double price = CostOf(legal[drop]) + m.cfg.prone_cost * (1 + near);
  return now->Value(m.cfg.ko_bonus) - after > price ? drop : -1;
}

// prompts.py _blockade (R04).
long Answers::Blockade() {
  long best = -1;
  double best_gain = 0.0;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const PromptAct& a = legal[i];
    if (a.kind != PromptKind::kBlockadeAttack || !b.Enemy(a.target)) continue;
    const auto est = b.WeaponEstimate(b.me, a.target, a.arg);
    double worth = est ? est->Value(m.cfg.ko_bonus) : 0.5 * b.Offense(b.me);
    if (m.cfg.always_blockade && !a.mumm) worth += 1000.0;
    const double gain = worth - CostOf(a);
    if (gain > best_gain) best = static_cast<long>(i), best_gain = gain;
  }
  return best;
}

// prompts.py _sturz (R05, B06, X18).
long Answers::Sturz() {
  const long caught = First(PromptKind::kCatchFall);
  if (caught < 0) return -1;
  const int pw = b.CheckValue(b.me, b.strike.infiltration_check, false, true);
  const double qs = b.exact.ExpectedQs(pw);
  const Profile prof = b.DamageProfile(b.me, 0, b.strike.fall_armour_mode, 0, 0);
  return qs * b.exact.Stats(prof, 1).first >= CostOf(legal[caught]) ? caught : -1;
}

// prompts.py _damage (M06).
long Answers::Damage() {
  const long halve = First(PromptKind::kHalveDamage);
  if (halve < 0) return -1;
  const int total = std::get<kampf::DamageF>(Top()).total;
  const int half = total / 2, lp = b.mf.lp;
  double saved = static_cast<double>(total - half);
  if (lp - total <= 0 && 0 < lp - half) saved += m.cfg.ko_bonus;
  const int limit = -b.strike.specs[b.me].unbeugsamkeit;
  if (lp - total <= limit && limit < lp - half) saved += 2 * m.cfg.ko_bonus;
  return saved >= 2 * m.cfg.mumm_value ? halve : -1;
}

// prompts.py _drag (K03).
long Answers::Drag() {
  std::vector<int> others;
  for (std::size_t i = 0; i < b.s.fighters.size(); ++i) {
    const Fighter& f = b.s.fighters[i];
    if (f.side == b.mf.side && f.standing() && static_cast<int>(i) != b.me)
      others.push_back(f.pos);
  }
  if (others.empty()) return -1;
  const auto gap = [&](int cell) {
    int best = b.Dist(cell, others.front());
    for (int p : others) best = std::min(best, b.Dist(cell, p));
    return best;
  };
  long best = -1;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (legal[i].kind != PromptKind::kDragTo) continue;
    const auto key = std::make_pair(gap(legal[i].cell), legal[i].cell);
    if (best < 0 || key < std::make_pair(gap(legal[best].cell), legal[best].cell))
      best = static_cast<long>(i);
  }
  if (best < 0) return -1;
  return gap(legal[best].cell) < gap(b.mf.pos) ? best : -1;
}

long Answers::Handle() {
  switch (*b.c.decision()) {
    case kampf::Asked::kPreCheck: return PreCheck();
    case kampf::Asked::kPostCheck: return PostCheck();
    case kampf::Asked::kKeep: return Keep();
    case kampf::Asked::kDefend: return Defend();
    case kampf::Asked::kNiederwerfen: return Niederwerfen();
    case kampf::Asked::kBlockade: return Blockade();
    case kampf::Asked::kSturz: return Sturz();
    case kampf::Asked::kDamage: return Damage();
    case kampf::Asked::kDeath: return First(PromptKind::kAvertDeath);  // M04: always
    case kampf::Asked::kDrag: return Drag();
    default: throw Deferred{};
  }
}

namespace {

// prompts.py _order (I04, X16): the tied fighter nearest a foe, then the most dangerous.
std::size_t Order(Mind& m) {
  Board& b = m.b;
  const std::vector<kampf::Act>& legal = b.c.Legal();
  std::size_t best = 0;
  std::tuple<int, double, int> best_key{};
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const int t = legal[i].target;
    const std::tuple<int, double, int> key{b.NearestEnemyDistance(b.s.fighters[t].pos),
                                           -b.Offense(t), t};
    if (i == 0 || key < best_key) best = i, best_key = key;
  }
  return best;
}

}  // namespace

std::size_t PromptAnswer(Mind& m) {
  if (*m.b.c.decision() == kampf::Asked::kOrder) return Order(m);
  const std::vector<PromptAct>& legal = m.b.c.Prompted();
  Answers answers{m, m.b, legal};
  std::vector<int> shakes;
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < legal.size(); ++i)
    if (legal[i].kind == PromptKind::kMummShake) shakes.push_back(legal[i].arg), at.push_back(i);
  if (!shakes.empty()) {  // M08 at a prompt (X38), never at the price of its own spends
    const int left = m.b.mf.mumm - answers.Price(legal[at.front()]);
    bool affordable = true;
    for (const PromptAct& a : legal)
      if (a.kind != PromptKind::kMummShake && answers.Price(a) > left) affordable = false;
    if (affordable) {
      const long shake = m.ShakeWorthIt(shakes);
      if (shake >= 0) return at[shake];
    }
  }
  const long choice = answers.Handle();
  return choice >= 0 ? static_cast<std::size_t>(choice) : legal.size() - 1;
}

}  // namespace cwenv::doctrine
