// Test-only planted deviations (tests/test_native_faults.py, docs/native.md): a switch
// that makes the core answer one thing differently from the reference, so that a test
// can show the conformance checks notice it. Off unless a test turns one on through
// cwenv._core._fault; nothing else may set it.
#pragma once

namespace cwenv {

enum class Fault {
  kNone,
  kProvocationTie,  // Routes::Key prefers the state with more provocations on a metre tie
  kCoverLevel,      // Lines::TerrainCover reports three-quarter cover as half
  kMeleeReachEdge,  // kampf::Weapon::InRange refuses a melee strike at exactly its reach
  kGuardReach,      // kampf::MoveInputsOf: every Blockade guard reaches one metre further
  kExtraActionTwice,  // kampf::TurnActions offers M07 again after it was taken this round
  kLivingCoverTie,  // kampf::CoverAgainst: on a tie the creature nearer the attacker covers
  kSyncLp,  // kampf::EventSync: an LPChanged leaves the fighter its LP before the change
  kLastReaction,  // kampf::ReactionChoice (prompts.cpp): no reactions left still counts as one
  kSyncAim,  // kampf::EventSync::ApplyActed: an AIM event sets one aim stack fewer
  kPlanProne,  // kampf::PlanAttack: a prone target's -2 (R06) also behind half cover
  kStrikeArmour,  // kampf::NativeCombat's DamageFrame: armour one point less (A06)
};

inline Fault g_fault = Fault::kNone;

}  // namespace cwenv
