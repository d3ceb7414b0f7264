// M08 at a prompt in the native combat (combat.hpp; X38 mumm_shake_timing any_decision):
// state.py _shake_at_prompt, conditions.py shake_with_mumm, and each frame's reprompt —
// the same decision asked again with what the fighter can do now.
#include <algorithm>
#include <type_traits>

#include "combat.hpp"

namespace cwenv::kampf {

namespace {

constexpr int kBeforeRoll = 0, kAfterRoll = 2;  // CheckStage

}  // namespace

// conditions.py shake_with_mumm (M08, X55): pay, end the condition or the Zehrend; the
// condition shaken off, -1 for a Zehrend (no choice depends on it).
int NativeCombat::ShakeWithMumm(int fi, int arg) {
  SpendMumm(fi, Spend::kZustandAbschuetteln);
  if (arg >= kZehrendArg) {
    const int kind = zehrend_[fi][arg - kZehrendArg];
    DropZehrend(fi, kind);
    if (!InDangerZone(fi, kind)) DropZone(fi, kind);  // in its zone the mark stays (D03)
    events_.push_back(ZehrendLost{fi, kind, ZehrendEnd::kMumm});
    return -1;
  }
  LoseCondition(fi, arg, LostBy::kMumm);
  return arg;
}

// frames.py Frame.reprompt: the same choices less those it can no longer pay for.
void NativeCombat::Affordable(int fi, std::vector<PromptAct>& choices) const {
  const Fighter& f = s_.fighters[fi];
  std::erase_if(choices, [&](const PromptAct& a) {
    int price = strike_.price[static_cast<int>(a.kind)];  // tables/mumm.py mumm_price
    if (!price && a.mumm) price = strike_.cost[static_cast<int>(Spend::kZusaetzlicheReaktion)];
    return price && !MummOk(g_.options, f, price);
  });
}

// state.py _shake_at_prompt: the shake, then the frame's reprompt; a decision left with a
// single choice takes it at once (uncounted, as the reference's _pose is there).
void NativeCombat::ShakeAtPrompt(const PromptAct& shake) {
  const Asked kind = *asked_;
  const int fi = decider_;
  std::vector<PromptAct> again = choices_;  // the decision's own choices
  asked_.reset(), plegal_.clear();
  const int shaken = ShakeWithMumm(fi, shake.arg);
  if (!Reprompt(stack_.back(), kind, fi, shaken, again)) {
    Run({});  // the frame runs on with no answer and asks again itself
    return;
  }
  Ask(kind, fi, again);
  if (plegal_.size() != 1) return;
  Value v;
  v.prompted = true, v.answer = plegal_.front();
  asked_.reset(), plegal_.clear();
  Run(v);
}

// Each frame's reprompt: false to run the frame on (it asks again itself), true to ask
// ``again`` (rebuilt where the frame's choices depend on the fighter's conditions).
bool NativeCombat::Reprompt(Frame& top, Asked kind, int fi, int shaken,
                            std::vector<PromptAct>& again) {
  const auto rebuilt = [&](const std::vector<PromptAct>& acts) {
    if (acts.empty()) {  // nothing left to pay with: the affordable rest stands
      Affordable(fi, again);
    } else {
      again = acts;
    }
    return true;
  };
  return std::visit(
      [&](auto& f) -> bool {
        using F = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<F, CheckF>) {  // CheckFrame.reprompt
          if (f.stage == kBeforeRoll) {  // the shaken condition's malus leaves the roller's parts
            for (int i = 1; i < f.own; ++i)
              if (f.parts.p[i].kind == PartKind::kCondition && f.parts.p[i].ref == shaken) {
                std::copy(f.parts.p.begin() + i + 1, f.parts.p.begin() + f.parts.n,
                          f.parts.p.begin() + i);
                --f.parts.n, --f.own;
                break;
              }
            return false;
          }
          if (f.stage == kAfterRoll) return false;
          Affordable(fi, again);
          return true;
        } else if constexpr (std::is_same_v<F, AttackF>) {  // AttackFrame.reprompt
          if (kind == Asked::kNiederwerfen)
            NiederwerfenChoices(g_, prompts_, s_.fighters[fi], fi, ReactingOf(fi), f.attacker,
                                asked_acts_);
          else if (kind == Asked::kDefend)
            DefenceChoices(g_, prompts_, s_.fighters[fi], fi, ReactingOf(fi), f.attacker, f.mode,
                           f.index, asked_acts_);
          else
            asked_acts_.clear();
          return rebuilt(asked_acts_);
        } else if constexpr (std::is_same_v<F, MoveF>) {  // MoveFrame.reprompt
          BlockadeChoices(g_, prompts_, s_.fighters[fi], fi, ReactingOf(fi), f.fighter,
                          s_.fighters[f.fighter].pos, f.path[f.i], asked_acts_);
          return rebuilt(asked_acts_);
        } else if constexpr (std::is_same_v<F, DragF>) {  // DragFrame.reprompt
          asked_acts_.clear();
          if (kind == Asked::kDrag) {
            const std::optional<Routes> reach = DragReach(f.attacker);
            for (int cell : reach->dests())
              asked_acts_.push_back({PromptKind::kDragTo, f.attacker, f.target, -1, 0, cell});
            if (!asked_acts_.empty())
              asked_acts_.push_back({PromptKind::kDragStop, f.attacker, f.target, -1, 0});
          } else {
            const Fighter& a = s_.fighters[f.attacker];
            const bool attacker = f.mover == f.attacker;
            const int start = attacker ? a.pos : s_.fighters[f.target].pos;
            const int end = attacker ? f.path[f.i] : a.pos;
            BlockadeChoices(g_, prompts_, s_.fighters[fi], fi, ReactingOf(fi), f.mover, start, end,
                            asked_acts_);
          }
          return rebuilt(asked_acts_);
        } else if constexpr (std::is_same_v<F, FallF>) {  // FallFrame.reprompt
          CatchFallChoices(g_, prompts_, s_.fighters[fi], fi, ReactingOf(fi), asked_acts_);
          return rebuilt(asked_acts_);
        } else {  // frames.py Frame.reprompt: DAMAGE, DEATH
          Affordable(fi, again);
          return true;
        }
      },
      top);
}

}  // namespace cwenv::kampf
