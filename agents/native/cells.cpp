// agents._cells: the doctrines' per-cell scoring in C++ (issue #16, "native rollout
// policies"): the twin of agents/cells.py's ShotTable.best_from and ThreatTable.exposure,
// which stay the readable reference (tests/test_native_cells.py checks every cell of
// seeded fights for the same number, exactly). Built against the core's line-of-fire
// code (src/los.hpp); the engine itself knows nothing of this module.
//
// What does not depend on the cell (Probenwerte before range and cover, defences,
// weights) is computed in Python once per decision and handed over; the exact odds of a
// Probenwert the table has not met yet come from a Python callable, once per key, as the
// dictionaries of the reference keep them.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "los.hpp"

namespace nb = nanobind;

namespace {

using cwenv::Cover;
using cwenv::Lines;
using cwenv::Terrain;

constexpr int kNoRange = -1000;  // WeaponSpec.range_modifier's None
constexpr int kProneMalus = 2;   // agents.estimates.PRONE_TARGET_MALUS (R06)
constexpr int kPenalty[4] = {0, -2, -4, 0};  // CoverLevel.penalty (C01)

// (max_m, modifier) bands, in order (a melee weapon: one band up to its reach, 0).
using Bands = std::vector<std::pair<int, int>>;

// specs.py WeaponSpec.range_modifier over the bands.
int RangeModifier(const Bands& bands, int dist) {
  for (const auto& [max_m, modifier] : bands)
    if (dist <= max_m) return modifier;
  return kNoRange;
}

int Chebyshev(int width, int a, int b) {
  const int dx = std::abs(a % width - b % width), dy = std::abs(a / width - b / width);
  return dx > dy ? dx : dy;
}

// The map's static lines of fire (one per battle map, kept by agents/cells.py), and the
// opacity of one decision (doors change it).
struct Map {
  Lines lines;
};

Map MakeMap(int width, int height, const nb::bytes& terrain) {
  const std::size_t size = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (width < 1 || height < 1 || terrain.size() != size)
    throw std::invalid_argument("terrain must have width × height cells");
  std::vector<Terrain> cells;
  cells.reserve(size);
  const auto* t = static_cast<const std::uint8_t*>(terrain.data());
  for (std::size_t i = 0; i < size; ++i) {
    if (t[i] > static_cast<std::uint8_t>(Terrain::kFire))
      throw std::invalid_argument("unknown terrain value " + std::to_string(t[i]));
    cells.push_back(static_cast<Terrain>(t[i]));
  }
  return Map{Lines(width, height, std::move(cells))};
}

struct Sight {
  Lines lines;
  std::vector<std::uint8_t> opaque;

  Sight(const Map& map, const nb::bytearray& opaque_) : lines(map.lines) {
    if (static_cast<int>(opaque_.size()) != lines.size())
      throw std::invalid_argument("opaque must have one byte per cell of the map");
    const auto* o = static_cast<const std::uint8_t*>(opaque_.data());
    opaque.assign(o, o + opaque_.size());
  }

  Cover CoverOf(int from, int at) const {
    return lines.TerrainCover(std::span<const std::uint8_t>(opaque), from, at);
  }
};

// One memo per key, as the reference's dictionaries: a short list, searched linearly.
template <typename Key>
struct Memo {
  std::vector<std::pair<Key, double>> kept;
  const double* Find(const Key& k) const {
    for (const auto& [key, v] : kept)
      if (key == k) return &v;
    return nullptr;
  }
};

// cells.py _Shot: one usable single-target weapon of mine against one enemy.
struct Shot {
  bool ranged;
  int pw, aim_pw, aim_qs;
  Bands bands;
  Memo<std::pair<int, int>> values;  // (pw, aim_qs) -> weighted worth
};

struct Target {
  int pos;
  bool prone, prone_bonus;
  std::vector<Shot> shots;
};

// cells.py ShotTable.best_from: the best weighted worth of one attack from a cell.
class Shots {
 public:
  Shots(const Map& map, const nb::bytearray& opaque, int me, const nb::list& targets,
        nb::object value)
      : sight_(map, opaque), me_(me), value_(std::move(value)) {
    for (nb::handle row : targets) {
      auto [pos, prone, prone_bonus, shots] =
          nb::cast<std::tuple<int, bool, bool, nb::list>>(row);
      Target t{pos, prone, prone_bonus, {}};
      for (nb::handle s : shots) {
        auto [ranged, pw, aim_pw, aim_qs, bands] =
            nb::cast<std::tuple<bool, int, int, int, Bands>>(s);
        t.shots.push_back(Shot{ranged, pw, aim_pw, aim_qs, std::move(bands), {}});
      }
      targets_.push_back(std::move(t));
    }
  }

  double BestFrom(int cell) {
    const int width = sight_.lines.width();
    if (cell < 0 || cell >= sight_.lines.size()) throw std::out_of_range("cell off the map");
    const bool here = cell == me_;
    double best = 0.0;
    for (std::size_t r = 0; r < targets_.size(); ++r) {
      Target& t = targets_[r];
      const int dist = Chebyshev(width, cell, t.pos);
      int cover = -1;  // one line of fire per target, for all its weapons, when needed
      for (std::size_t k = 0; k < t.shots.size(); ++k) {
        Shot& s = t.shots[k];
        const int rm = RangeModifier(s.bands, dist);
        if (rm == kNoRange) continue;
        if (cover < 0) {
          cover = static_cast<int>(sight_.CoverOf(cell, t.pos));
          if (cover == static_cast<int>(Cover::kHalf) && t.prone)
            cover = static_cast<int>(Cover::kThreeQuarter);  // R06, as Board.terrain_cover_at
        }
        if (cover == static_cast<int>(Cover::kFull)) break;  // no sight: no shot, no blow
        int pw = s.pw, aim_qs = 0;
        if (s.ranged) {  // estimates.py shot_modifier (A01, C01, R06)
          pw += t.prone_bonus && cover == 0 ? rm - kProneMalus : rm + kPenalty[cover];
          if (here) pw += s.aim_pw, aim_qs = s.aim_qs;
        }
        const std::pair<int, int> key{pw, aim_qs};
        const double* kept = s.values.Find(key);
        double v;
        if (kept) {
          v = *kept;
        } else {
          if (!value_) throw std::runtime_error("the table was cleared");
          v = nb::cast<double>(value_(r, k, pw, aim_qs));
          s.values.kept.emplace_back(key, v);
        }
        if (v > best) best = v;
      }
    }
    return best;
  }

 private:
  Sight sight_;
  int me_;
  std::vector<Target> targets_;

 public:
  // The doctrine's table it asks back holds this one: the garbage collector sees it.
  nb::object value_;
};

// cells.py _Threat: an enemy's one attack on me.
struct Threat {
  int pos;
  bool ranged;
  Bands bands;  // its drawn gun's, when ranged
  int reach;
  Memo<int> incoming;  // modifier -> expected damage
  bool melee_known = false;
  double melee = 0.0;
};

// cells.py ThreatTable.exposure: the expected damage I would take on a cell.
class Threats {
 public:
  Threats(const Map& map, const nb::bytearray& opaque, const nb::list& threats,
          nb::object incoming, nb::object melee)
      : sight_(map, opaque),
        incoming_(std::move(incoming)),
        melee_(std::move(melee)) {
    for (nb::handle row : threats) {
      auto [pos, ranged, bands, reach] = nb::cast<std::tuple<int, bool, Bands, int>>(row);
      if (ranged && bands.empty()) throw std::invalid_argument("a ranged threat without bands");
      threats_.push_back(Threat{pos, ranged, std::move(bands), reach, {}});
    }
  }

  double Exposure(int cell) {
    const int width = sight_.lines.width();
    if (cell < 0 || cell >= sight_.lines.size()) throw std::out_of_range("cell off the map");
    double total = 0.0;
    for (std::size_t i = 0; i < threats_.size(); ++i) {
      Threat& th = threats_[i];
      const int dist = Chebyshev(width, cell, th.pos);
      if (th.ranged) {
        const Cover level = sight_.CoverOf(th.pos, cell);  // C01, C02
        if (level == Cover::kFull) continue;
        int rm = RangeModifier(th.bands, dist);
        double share = 1.0;
        if (rm == kNoRange) rm = th.bands.back().second, share = 0.5;  // must close in first
        const int modifier = rm + kPenalty[static_cast<int>(level)];
        const double* kept = th.incoming.Find(modifier);
        double hit;
        if (kept) {
          hit = *kept;
        } else {
          if (!incoming_) throw std::runtime_error("the table was cleared");
          hit = nb::cast<double>(incoming_(i, modifier));
          th.incoming.kept.emplace_back(modifier, hit);
        }
        total += share * hit;
      } else if (dist <= th.reach) {
        if (!th.melee_known) {
          if (!melee_) throw std::runtime_error("the table was cleared");
          th.melee = nb::cast<double>(melee_(i)), th.melee_known = true;
        }
        total += th.melee;
      }
    }
    return total;
  }

 private:
  Sight sight_;
  std::vector<Threat> threats_;

 public:
  nb::object incoming_, melee_;
};

// Each table and the Python table whose methods it calls hold each other, so both take
// part in cyclic garbage collection (a decision's tables are freed with its board).
template <typename T>
int Traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  T* t = nb::inst_ptr<T>(self);
  if constexpr (std::is_same_v<T, Shots>) {
    Py_VISIT(t->value_.ptr());
  } else {
    Py_VISIT(t->incoming_.ptr());
    Py_VISIT(t->melee_.ptr());
  }
  return 0;
}

template <typename T>
int Clear(PyObject* self) {
  T* t = nb::inst_ptr<T>(self);
  if constexpr (std::is_same_v<T, Shots>) {
    t->value_ = nb::object();
  } else {
    t->incoming_ = nb::object(), t->melee_ = nb::object();
  }
  return 0;
}

PyType_Slot kShotsSlots[] = {{Py_tp_traverse, reinterpret_cast<void*>(Traverse<Shots>)},
                             {Py_tp_clear, reinterpret_cast<void*>(Clear<Shots>)},
                             {0, nullptr}};
PyType_Slot kThreatsSlots[] = {{Py_tp_traverse, reinterpret_cast<void*>(Traverse<Threats>)},
                               {Py_tp_clear, reinterpret_cast<void*>(Clear<Threats>)},
                               {0, nullptr}};

}  // namespace

NB_MODULE(_cells, m) {
  m.doc() = "The doctrines' cell scoring in C++ (agents/cells.py is the reference).";
  nb::class_<Map>(m, "Map")
      .def("__init__",
           [](Map* self, int width, int height, const nb::bytes& terrain) {
             new (self) Map(MakeMap(width, height, terrain));
           },
           nb::arg("width"), nb::arg("height"), nb::arg("terrain"));
  nb::class_<Shots>(m, "Shots", nb::type_slots(kShotsSlots))
      .def(nb::init<const Map&, const nb::bytearray&, int, const nb::list&, nb::object>(),
           nb::arg("map"), nb::arg("opaque"), nb::arg("me"), nb::arg("targets"),
           nb::arg("value"))
      .def("best_from", &Shots::BestFrom, nb::arg("cell"));
  nb::class_<Threats>(m, "Threats", nb::type_slots(kThreatsSlots))
      .def(nb::init<const Map&, const nb::bytearray&, const nb::list&, nb::object,
                    nb::object>(),
           nb::arg("map"), nb::arg("opaque"), nb::arg("threats"), nb::arg("incoming"),
           nb::arg("melee"))
      .def("exposure", &Threats::Exposure, nb::arg("cell"));
}
