// The Taktiker's twin's answers to the prompts (answers.cpp) and its Mumm around a check
// (spends.cpp): what a prompt is about, read from the frame that asks it, and the answers
// of agents/prompts.py, agents/spends.py and agents/losses.py. Internal to agents._rollouts.
#pragma once

#include <algorithm>
#include <vector>

#include "taktiker.hpp"

namespace cwenv::doctrine {

using kampf::Mode;
using kampf::Probe;
using kampf::PromptAct;
using kampf::PromptKind;

inline constexpr int kMaxQs = 12;  // losses.py MAX_QS
inline constexpr int kPurposeAttack = 0, kPurposeDefence = 1;  // payloads.py CheckPurpose

// payloads.py AttackRef.
struct AttackRef {
  int attacker, target;
  Mode mode;
  int index;
  bool rolled;
  Probe roll;
  int aim_qs;
};

enum class Sort { kAttack, kDefence, kDying, kBenommen, kOther };  // spends.py Sort

// One prompt of the Taktiker's twin: its legal choices and what it reads to answer them.
struct Answers {
  Mind& m;
  Board& b;
  const std::vector<PromptAct>& legal;

  long First(PromptKind kind) const {  // losses.py first
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == kind) return static_cast<long>(i);
    return -1;
  }
  double CostOf(const PromptAct& a) const { return a.mumm ? m.cfg.mumm_value : m.cfg.reaction_value; }
  int Price(const PromptAct& a) const {  // tables/mumm.py mumm_price (M01-M09)
    const int spend = b.strike.price[static_cast<int>(a.kind)];  // every spend costs Mumm
    if (spend) return spend;
    return a.mumm ? b.strike.cost[static_cast<int>(kampf::Spend::kZusaetzlicheReaktion)] : 0;
  }
  const kampf::Frame& Top() const { return b.c.stack().back(); }

  // losses.py attack_on_me: the attack a DEFEND or NIEDERWERFEN answers.
  AttackRef AttackOnMe() const;
  // losses.py loss_table: the expected loss to me per QS 0..MAX_QS of a hit.
  std::vector<double> LossTable(const AttackRef& info);
  // prompts.py _defend and defend_gains (A02-A04, M05).
  long Defend();
  // prompts.py _niederwerfen (R06, X23).
  long Niederwerfen();
  // prompts.py _blockade (R04).
  long Blockade();
  // prompts.py _sturz (R05, B06, X18).
  long Sturz();
  // prompts.py _damage (M06).
  long Damage();
  // prompts.py _drag (K03).
  long Drag();
  // spends.py check_sort.
  Sort SortOf(const kampf::CheckF& k, AttackRef& attack) const;
  // spends.py _attack_value: my declared attack's worth with ``delta`` on its Probenwert.
  double AttackValue(const AttackRef& info, int delta);
  // spends.py _forced_value (M09).
  double ForcedValue(const AttackRef& info, int pw);
  // spends.py _attack_pw.
  int AttackPw(const AttackRef& info);
  // spends.py _my_defence_pw (A03).
  int MyDefencePw(const AttackRef& info) const;
  double Turns() const { return std::max(1, b.c.actions(b.me)); }

  // spends.py pre_check (P03, M02, M09).
  long PreCheck();
  // worth.py patzer_cost (A08, X09).
  double PatzerCost();
  // spends.py post_check and _reroll_gain (M01, M03).
  long PostCheck();
  // spends.py keep (M03): the better of the two results.
  long Keep();
  // prompts.py _HANDLERS: the answer of this prompt's kind, -1 for its declining choice.
  long Handle();
};

}  // namespace cwenv::doctrine
