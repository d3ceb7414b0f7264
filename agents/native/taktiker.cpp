// The doctrines in C++ (issue #16, "native rollout policies"): their turn here — the twin of
// agents/doctrine.py Doctrine.turn with the Taktiker's, the Schütze's or the Stürmer's
// hooks (hooks.cpp) and weights: M08, Z02's
// Mumm-Probe, the cells valued by the best attack from there and the damage taken there
// (agents/cells.py), the Handlungen by their worth (valuation.cpp), the sprint toward the
// enemy, M07 — and its answers to the prompts in answers.cpp, choice for choice the Python
// agent's on the same state. Where a decision reaches what the twin does not value yet (a
// Schwierige Bewegung, a Zehrend's M08) it returns kDeferChoice: an exact play-on (whole
// games, search's rollouts) hands that decision to the Python Taktiker, so the game stays
// the one the Python agent plays. tests/test_native_taktiker.py holds it to
// agents/taktiker.py at every decision it makes.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "taktiker.hpp"

namespace cwenv::doctrine {

namespace {

using kampf::Act;
using kampf::Kind;

// doctrine.py TurnChoices: the legal TURN actions, grouped (indices into Legal()).
struct TurnChoices {
  const std::vector<Act>& legal;
  std::vector<std::pair<int, std::size_t>> moves;  // cell -> action, first met first
  std::vector<std::size_t> handlungen, shakes;
  long end = -1, extra = -1, probe = -1, sprint = -1;

  TurnChoices(const std::vector<Act>& l, int cells) : legal(l) {
    std::vector<int> slot(static_cast<std::size_t>(cells), -1);  // a cell's entry in moves
    for (std::size_t i = 0; i < l.size(); ++i) {
      const Kind k = l[i].kind;
      const long at = static_cast<long>(i);
      if (k == Kind::kMove) {
        int& in = slot[l[i].cell];
        if (in < 0) {
          in = static_cast<int>(moves.size());
          moves.emplace_back(l[i].cell, i);
        } else {
          moves[in].second = i;  // a dictionary keeps the last action per cell
        }
      } else if (k == Kind::kEndTurn) {
        end = at;
      } else if (k == Kind::kMummExtraAction) {
        extra = at;
      } else if (k == Kind::kMummShake) {
        shakes.push_back(i);
      } else if (k == Kind::kMummProbe) {
        probe = at;
      } else if (k == Kind::kSprint) {
        sprint = at;
        handlungen.push_back(i);
      } else if (static_cast<int>(k) < kampf::kChooseActor) {
        handlungen.push_back(i);
      }
    }
  }
};

// cells.py _Shot and _Target: what does not depend on the cell a shot is made from — one
// usable single-target weapon of mine against one enemy (its Probenwert before range,
// cover and Zielen, the defence against it, its damage, the doctrine's weight).
struct Shot {
  int wi;
  const kampf::Weapon* w;
  int pw, dpw, aim_pw, aim_qs;
  Profile prof;
  double weight;
  // (pw, aim QS) -> weighted worth, met again and again across the decision's cells (a
  // shot takes only a few range bands and cover levels)
  std::vector<std::tuple<int, int, double>> worth = {};
};
struct Target {
  int ti, pos;
  bool prone, prone_bonus;
  std::vector<Shot> shots;
};

// One TURN decision (doctrine.py Doctrine.turn and what it calls), with the decision's
// shot rows and threat values (cells.py ShotTable, ThreatTable) kept on first use.
struct Turn {
  Mind& m;
  Board& b;
  TurnChoices ch;
  std::map<int, double> close;  // the Stürmer's best manoeuvre per adjacent enemy
  std::map<std::pair<int, int>, double> incoming;
  std::optional<std::vector<Target>> shots;  // cells.py ShotTable's rows, on first use

  std::size_t Choose() {
    if (ch.probe >= 0) return ch.probe;  // Z02: the benommen Mumm-Probe
    std::vector<int> shakes;  // M08
    for (std::size_t i : ch.shakes) shakes.push_back(ch.legal[i].arg);
    const long shake = m.ShakeWorthIt(shakes);
    if (shake >= 0) return ch.shakes[shake];
    if (!ch.handlungen.empty()) return Plan();
    if (ch.extra >= 0 && m.CurrentBest() >= 2 * m.cfg.mumm_value) return ch.extra;  // M07
    const long move = BestMove(false);
    if (move >= 0) return move;
    return ch.end >= 0 ? ch.end : ch.legal.size() - 1;
  }

  // Doctrine._plan (the Stürmer's plan_first first; the others have none).
  std::size_t Plan() {
    if (m.cfg.kind == DoctrineKind::kStuermer) {
      const long first = Charge();
      if (first >= 0) return first;
    }
    const long move = BestMove(true);
    if (move >= 0) return move;
    long best = -1;
    double worth = 0.0;
    for (std::size_t i : ch.handlungen) {  // Doctrine._best_handlung
      if (ch.legal[i].kind == Kind::kSprint) continue;
      const double v = m.HandlungValue(ch.legal[i]);
      if (best < 0 || v > worth) best = static_cast<long>(i), worth = v;
    }
    if (best >= 0 && worth >= m.cfg.min_act) return best;
    if (!b.is_protected && ch.sprint >= 0 && !b.enemies.empty() && Far())
      return ch.sprint;  // Doctrine.approach: a VIP does not charge
    if (ch.end >= 0) return ch.end;
    return best >= 0 ? best : ch.handlungen.front();
  }

  // Doctrine._far.
  bool Far() {
    const kampf::Spec& spec = b.g.specs[b.me];
    const int move = spec.movement;
    int guns = -1;
    for (int wi = 0; wi < spec.n_weapons; ++wi) {
      const kampf::Weapon& w = spec.weapons[wi];
      if (kampf::WeaponUsable(spec, b.mf, wi) && w.ranged && w.area_radius == 0)
        guns = std::max(guns, w.bands ? w.ranges[w.bands - 1].max_m : 0);
    }
    if (guns >= 0 && b.NearestEnemyDistance(b.mf.pos) <= guns + move) return false;
    return b.WalkDistance(b.mf.pos) > move + std::max(kampf::MeleeReach(spec, b.mf), 1);
  }

  // Doctrine._best_move.
  long BestMove(bool acting) {
    if (ch.moves.empty()) return -1;
    if (!acting && b.mf.aim_stacks && b.c.combat_rules().zielen_lost_on_move) return -1;
    const double here = CellValue(b.mf.pos, acting);
    long best_cell = -1;
    double best = here + m.cfg.move_margin;
    for (int cell : Candidates()) {
      const double v = CellValue(cell, acting);
      if (v > best) best = v, best_cell = cell;
    }
    if (best_cell < 0) return -1;
    for (const auto& [cell, i] : ch.moves)
      if (cell == best_cell) return static_cast<long>(i);
    return -1;
  }

  // stuermer.py plan_first: charge, sprinting first when no foe can be struck in melee
  // this turn and no shot is worth more than the sprint.
  long Charge() {
    if (ch.sprint < 0 || b.enemies.empty()) return -1;
    if (m.InReach(b.mf.pos)) return -1;
    for (const auto& [cell, i] : ch.moves)
      if (m.InReach(cell)) return -1;
    double best_shot = 0.0;
    bool any = false;
    for (std::size_t i : ch.handlungen) {
      const Kind k = ch.legal[i].kind;
      if (k != Kind::kAttack && k != Kind::kDraw && k != Kind::kPickUp) continue;
      const double v = m.HandlungValue(ch.legal[i]);
      if (!any || v > best_shot) best_shot = v;
      any = true;
    }
    return m.cfg.sprint_value >= best_shot ? ch.sprint : -1;
  }

  // Doctrine.candidates: the first max_cells by the doctrine's key, ties to the lower cell.
  std::vector<int> Candidates() {
    const std::vector<std::uint8_t>& cover = b.CoverCells();
    std::vector<std::pair<double, int>> ranked;
    ranked.reserve(ch.moves.size());
    for (const auto& [cell, i] : ch.moves) ranked.emplace_back(m.CandidateKey(cell, cover[cell]), cell);
    // the first max_cells in order (the cells differ, so no two pairs tie)
    const std::size_t keep = std::min(ranked.size(), static_cast<std::size_t>(m.cfg.max_cells));
    if (keep < ranked.size()) std::nth_element(ranked.begin(), ranked.begin() + keep, ranked.end());
    std::sort(ranked.begin(), ranked.begin() + keep);
    std::vector<int> out;
    out.reserve(keep);
    for (std::size_t k = 0; k < keep; ++k) out.push_back(ranked[k].second);
    return out;
  }

  // Doctrine.cell_value.
  double CellValue(int cell, bool acting) {
    if (b.is_protected)  // a VIP whose fall loses the fight keeps out of harm's way
      return -3.0 * Exposure(cell) + 0.1 * std::min(b.WalkDistance(cell), 20);
    double value = m.CellBonus(cell);
    if (acting) value += AttackFrom(cell);
    value -= m.Risk() * Exposure(cell);
    value -= m.cfg.approach_weight * b.WalkDistance(cell);
    if (b.exits_goal) {
      value -= m.cfg.exit_weight * b.ExitDistance(cell);
      if (b.c.combat_rules().exits[cell]) value += 100.0;
    }
    if (b.g.terrain[cell] == cwenv::Terrain::kFire) value -= 10.0;
    return value;
  }

  // cells.py ShotTable's rows: every enemy, every usable single-target weapon of mine.
  std::vector<Target>& Shots() {
    if (shots) return *shots;
    shots.emplace();
    const kampf::Spec& spec = b.g.specs[b.me];
    for (int ti : b.enemies) {
      const Fighter& tf = b.s.fighters[ti];
      Target row{ti, tf.pos, tf.prone(), tf.prone_bonus, {}};
      for (int wi = 0; wi < spec.n_weapons; ++wi) {  // Board.single_target_weapons
        const kampf::Weapon& w = spec.weapons[wi];
        if (!kampf::WeaponUsable(spec, b.mf, wi) || w.area_radius != 0) continue;
        const auto [aim_pw, aim_qs] = w.ranged ? b.AimKept(b.me, ti) : std::pair<int, int>{0, 0};
        row.shots.push_back({wi, &w, b.ShotBase(b.me, ti, wi), b.DefenceValue(ti, b.me, wi),
                             aim_pw, aim_qs, b.WeaponProfile(b.me, ti, wi),
                             m.TargetWeight(ti) * m.WeaponWeight(w)});
      }
      shots->push_back(std::move(row));
    }
    return *shots;
  }

  // cells.py ShotTable.best_from: the best weighted worth of one attack from ``cell``.
  double AttackFrom(int cell) {
    const bool here = cell == b.mf.pos;
    double best = 0.0;
    for (Target& t : Shots()) {
      const int dist = b.Dist(cell, t.pos);
      int cover = -1;
      for (Shot& shot : t.shots) {
        const std::optional<int> rm = RangeModifier(*shot.w, dist);
        if (!rm) continue;
        if (cover < 0) {  // one line of fire per target, for all its weapons
          cover = static_cast<int>(b.TerrainCover(cell, t.pos));
          if (cover == static_cast<int>(cwenv::Cover::kHalf) && t.prone)
            cover = static_cast<int>(cwenv::Cover::kThreeQuarter);  // R06
        }
        if (cover == static_cast<int>(cwenv::Cover::kFull)) break;  // no sight, no blow
        int pw = shot.pw, aim_qs = 0;
        if (shot.w->ranged) {
          pw += b.ShotModifier(*rm, static_cast<Cover>(cover), t.prone_bonus);
          if (here) pw += shot.aim_pw, aim_qs = shot.aim_qs;
        }
        const double v = Worth(shot, pw, aim_qs);
        if (v > best) best = v;
      }
    }
    if (m.cfg.kind == DoctrineKind::kStuermer && m.cfg.maneuver_mask != 0) {
      for (int e : b.enemies) {  // stuermer.py attack_from: a manoeuvre where adjacent
        if (b.Dist(cell, b.s.fighters[e].pos) > 1) continue;
        auto found = close.find(e);
        if (found == close.end()) {  // the best manoeuvre on e, the same from every cell
          double w = 0.0;
          bool any = false;
          for (int k = 0; k < 32; ++k)
            if (m.cfg.maneuver_mask >> k & 1) {
              const double v = m.StuermerManeuver(e, k);
              if (!any || v > w) w = v;
              any = true;
            }
          found = close.emplace(e, w).first;
        }
        best = std::max(best, found->second);
      }
    }
    return best;
  }

  double Worth(Shot& shot, int pw, int aim_qs) {
    for (const auto& [p, q, v] : shot.worth)
      if (p == pw && q == aim_qs) return v;
    const Estimate est = b.exact.EstimateOf(pw, shot.dpw, shot.prof, aim_qs);
    const double v = est.Value(m.cfg.ko_bonus) * shot.weight;
    shot.worth.emplace_back(pw, aim_qs, v);
    return v;
  }

  // cells.py ThreatTable.exposure: the expected damage I would take on ``cell``.
  double Exposure(int cell) {
    double total = 0.0;
    for (int e : b.enemies) {
      const Fighter& ef = b.s.fighters[e];
      const kampf::Spec& spec = b.g.specs[e];
      const int dist = b.Dist(cell, ef.pos);
      const int wi = ef.drawn;
      if (wi >= 0 && spec.weapons[wi].ranged && kampf::WeaponUsable(spec, ef, wi)) {
        const kampf::Weapon& w = spec.weapons[wi];
        const cwenv::Cover level = b.TerrainCover(ef.pos, cell);  // C01, C02
        if (level == cwenv::Cover::kFull) continue;
        std::optional<int> rm = RangeModifier(w, dist);
        double share = 1.0;
        if (!rm) rm = w.ranges[w.bands - 1].modifier, share = 0.5;  // it must close in first
        const int modifier = *rm + kCoverPenalty[static_cast<int>(level)];
        total += share * Incoming(e, wi, modifier);
      } else if (dist <= std::max(kampf::MeleeReach(spec, ef), 1)) {
        total += Incoming(e, -1, 0);
      }
    }
    return total;
  }

  // cells.py incoming (``wi`` < 0: melee_incoming), kept per decision.
  double Incoming(int e, int wi, int modifier) {
    const auto key = std::make_pair(e * 64 + wi + 1, modifier);
    auto found = incoming.find(key);
    if (found != incoming.end()) return found->second;
    const double v = wi < 0 ? b.MeleeIncoming(e) : b.Incoming(e, wi, modifier);
    incoming.emplace(key, v);
    return v;
  }

};

class Twin final : public kampf::RolloutPolicy {
 public:
  explicit Twin(const DoctrineConfig& cfg) : cfg_(cfg) {}

  std::size_t Choose(const NativeCombat& c, Pcg32*) const override {
    if (!c.decision()) return kampf::kDeferChoice;
    if ((c.prompt() ? c.Prompted().size() : c.Legal().size()) == 1) return 0;  // Doctrine.act
    // One capsule serves every agent of this doctrine with these weights: its caches are
    // shared.
    const std::lock_guard<std::mutex> lock(mutex_);
    Board board(c, exact_, walks_);
    Mind mind{cfg_, board};
    try {
      return c.prompt() || *c.decision() == kampf::Asked::kOrder ? PromptAnswer(mind)
                                                                 : TurnChoice(mind);
    } catch (const Deferred&) {
      return kampf::kDeferChoice;
    } catch (const std::exception&) {
      // a state the twin does not read (a frame it did not expect): the Python agent
      // decides, so the game stays its game; tests/test_native_taktiker.py keeps the
      // count of handed-back choices at zero on the test fights
      return kampf::kDeferChoice;
    }
  }

 private:
  DoctrineConfig cfg_;
  mutable std::mutex mutex_;
  mutable Exact exact_;
  mutable Walks walks_;
};

}  // namespace

std::size_t TurnChoice(Mind& m) {
  Turn turn{m, m.b, TurnChoices(m.b.c.Legal(), m.b.g.width * m.b.g.height), {}, {}, {}};
  return turn.Choose();
}

kampf::RolloutPolicy* MakeDoctrine(const DoctrineConfig& config) { return new Twin(config); }

}  // namespace cwenv::doctrine
