// The legality of the prompts (docs/native.md "The prompts"): the choices of every ported
// decision kind other than TURN, the native twin of cwenv/engine/prompts.py (PRE_CHECK,
// POST_CHECK, KEEP, NIEDERWERFEN, DEFEND, BLOCKADE, STURZ) and conditions.py prompt_shakes
// (M08, X38). The other kinds (ORDER, DAMAGE, DEATH, DRAG) stay with the reference
// (prompts.py UNPORTED). tests/test_native_prompts.py checks the same lists, order
// included, at every prompt of seeded random-play games.
#pragma once

#include <cstdint>
#include <vector>

#include "kampf.hpp"

namespace cwenv::kampf {

// turn.cpp's twins of checks.py mumm_problem and conditions.py mumm_shakes.
bool MummOk(const Options& o, const Fighter& f, int cost);
void MummShakes(const GameDesc& g, const Fighter& f, int fi, std::vector<Act>& out);

// cwenv.engine.actions.ActionKind values of the prompts' choices.
enum class PromptKind : std::uint8_t {
  kMummShake = 23, kPreNone = 25, kPreImprove = 26, kPreGrosserWurf = 27, kPostAccept = 28,
  kPostReroll = 29, kPostAvert = 30, kKeepFirst = 31, kKeepSecond = 32, kDefend = 33,
  kNoDefence = 34, kDropProne = 35, kStayUp = 36, kBlockadeAttack = 37, kLetPass = 38,
  kCatchFall = 39, kNoCatch = 40, kHalveDamage = 41, kTakeDamage = 42, kAvertDeath = 43,
  kAcceptDeath = 44, kDragTo = 45, kDragStop = 46, kPreActionbonus = 47,
};

// One prompt choice as cwenv.engine.actions.Action numbers it (-1: unused).
struct PromptAct {
  PromptKind kind;
  int actor, target, arg, mumm;
  int cell = -1;  // DRAG_TO's (K03)
};

// What the prompts read beyond GameDesc: the rule options (cwenv/rules/options), the Mumm
// costs (MummSpend), the defence values (CheckValue) and tables/checks.py CHECK_PURPOSES
// evaluated under the game's options, as bit sets over CheckPurpose.
struct PromptRules {
  int improve_cost, grosser_wurf_cost, avert_cost, reroll_cost, extra_reaction_cost;
  int improve_per_check;              // mumm_improve_per_check (M02)
  bool improve_then_grosser_wurf;     // M09 after M02
  bool actionbonus_declared;          // X14 actionbonus: declared_once_per_round
  bool nsc_actionbonus;               // X41
  bool futile_spends;                 // X53
  bool avert_after_reroll;            // M01 after M03
  int rerolls_per_check;              // mumm_rerolls_per_check (M03)
  bool keep_first_on_patzer;          // X38
  bool shake_any_decision;            // X38 mumm_shake_timing: any_decision
  bool reaction_while_benommen;       // X38 mumm_reaction_while_benommen
  bool maneuver_defence_free;         // X22 maneuver_reaction_cost == 0
  bool melee_two_defences;            // X21 melee_defence: ausweichen_or_kampfkunst
  int ausweichen, kampfkunst, firewall;  // CheckValue values
  std::uint32_t patzer_matters, graded;  // CHECK_PURPOSES' patzer(options) and graded
};

// What the prompts read of a fighter beyond kampf::Fighter (fighter.py FighterState).
struct Reacting {
  int reactions;
  bool actionbonus_used;
};

// A CheckFrame at its prompt (checks.py): the purpose, M02s and M03s so far, whether the
// parts hold the Actionbonus, the conditions whose malus is among the roller's own parts,
// and the roll standing (after it).
struct CheckAt {
  int purpose, improved, rerolls;
  bool has_actionbonus;
  std::uint32_t own_malus;  // bit set over Condition
  bool patzer, success, volltreffer;
};

// conditions.py prompt_shakes (M08, X38, Z02): ``order`` for an ORDER decision;
// ``turn_benommen``: the fighter's own turn began benommen.
void PromptShakes(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi, bool order,
                  bool turn_benommen, std::vector<PromptAct>& out);
// conditions.py reaction_choices (R01, R02, M05, X24, X38): 0, 1 (Mumm), or -1 for none.
int ReactionChoice(const GameDesc& g, const PromptRules& r, const Fighter& f, const Reacting& x);
// conditions.py shake_to_react (M08, X24).
bool ShakeToReact(const GameDesc& g, const PromptRules& r, const Fighter& f, const Reacting& x);

// prompts.py check_spends before the roll (M02, M09, P03, X14, X38).
void PreCheckChoices(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi,
                     const Reacting& x, const CheckAt& at, bool turn_benommen,
                     std::vector<PromptAct>& out);
// prompts.py check_spends after the roll (M01, M03, X53).
void PostCheckChoices(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi,
                      const CheckAt& at, std::vector<PromptAct>& out);
// prompts.py keep_choices (M03, X38): ``patzer``: the reroll is a Patzer.
void KeepChoices(const PromptRules& r, int fi, bool patzer, std::vector<PromptAct>& out);
// prompts.py niederwerfen_choices (R06, X23, M05): empty when the target is not asked.
void NiederwerfenChoices(const GameDesc& g, const PromptRules& r, const Fighter& t, int ti,
                         const Reacting& x, int attacker, std::vector<PromptAct>& out);
// The attack a defence answers: cwenv.model.types.AttackMode (a Blockadeangriff is a
// melee weapon's) and its index.
enum class Mode : std::uint8_t { kWeapon = 0, kHack = 1, kManeuver = 2, kBlockade = 3 };
// prompts.py defence_choices (A02, A03, R02, R03, M05, X21, X22): empty when not asked.
void DefenceChoices(const GameDesc& g, const PromptRules& r, const Fighter& t, int ti,
                    const Reacting& x, int attacker, Mode mode, int index,
                    std::vector<PromptAct>& out);

// prompts.py blockade_attack_choices (R04, M05, M08, X38): ``guard``'s Blockadeangriffe
// on ``mover`` stepping from cell ``a`` to ``b`` with each usable melee weapon in reach
// (the guard's drawn, dropped, jammed and ammunition read), then letting it pass; empty
// when the guard is not asked.
void BlockadeChoices(const GameDesc& g, const PromptRules& r, const Fighter& guard, int gi,
                     const Reacting& x, int mover, int a, int b, std::vector<PromptAct>& out);
// prompts.py catch_fall_choices (R05, B06, M05): empty when the faller is not asked.
void CatchFallChoices(const GameDesc& g, const PromptRules& r, const Fighter& f, int fi,
                      const Reacting& x, std::vector<PromptAct>& out);

}  // namespace cwenv::kampf
