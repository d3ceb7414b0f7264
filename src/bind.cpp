// The Python face of the native core: cwenv._core (nanobind). Only conversions live
// here; the rules are in the other files of src/.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <stdexcept>
#include <string>
#include <vector>

#include "faults.hpp"
#include "los.hpp"
#include "paths.hpp"

namespace nb = nanobind;

void BindStream(nb::module_& m);  // bind_stream.cpp
void BindKampf(nb::module_& m);   // bind_kampf.cpp
void BindEncode2(nb::module_& m);  // bind_encode2.cpp
void BindPrompts(nb::module_& m);  // bind_prompts.cpp
void BindPlan(nb::module_& m);  // bind_plan.cpp
void BindCombat(nb::module_& m);  // bind_combat.cpp
using cwenv::Lines;
using cwenv::Moves;
using cwenv::Routes;

namespace {

// Opacity is the combat's bytearray overlay (1 = blocks sight), one byte per cell.
std::span<const std::uint8_t> Opacity(const Lines& lines, const nb::bytearray& opaque) {
  if (static_cast<int>(opaque.size()) != lines.size())
    throw std::invalid_argument("opacity has " + std::to_string(opaque.size()) +
                                " cells; the map " + std::to_string(lines.size()));
  return {reinterpret_cast<const std::uint8_t*>(opaque.c_str()), opaque.size()};
}

int Checked(int size, int cell) {
  if (cell < 0 || cell >= size)
    throw std::out_of_range("cell " + std::to_string(cell) + " is off the map");
  return cell;
}

int Checked(const Lines& lines, int cell) { return Checked(lines.size(), cell); }

Lines MakeLines(int width, int height, const nb::bytes& terrain) {
  if (width < 1 || height < 1 || static_cast<int>(terrain.size()) != width * height)
    throw std::invalid_argument("terrain must have width × height cells");
  std::vector<cwenv::Terrain> cells;
  cells.reserve(terrain.size());
  for (std::uint8_t v : std::span(static_cast<const std::uint8_t*>(terrain.data()), terrain.size())) {
    if (v > static_cast<std::uint8_t>(cwenv::Terrain::kFire))
      throw std::invalid_argument("unknown terrain value " + std::to_string(v));
    cells.push_back(static_cast<cwenv::Terrain>(v));
  }
  return Lines(width, height, std::move(cells));
}

using Cells = nb::ndarray<const std::int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Levels = nb::ndarray<nb::numpy, std::int8_t, nb::ndim<1>>;

// The cover of every target cell against one attacker cell, as a numpy int8 array: the
// array form the agents' cell scoring will use.
Levels TerrainCovers(const Lines& lines, const nb::bytearray& opaque, int a, Cells cells) {
  const auto view = Opacity(lines, opaque);
  Checked(lines, a);
  auto* out = new std::int8_t[cells.shape(0)];
  nb::capsule owner(out, [](void* p) noexcept { delete[] static_cast<std::int8_t*>(p); });
  for (std::size_t i = 0; i < cells.shape(0); ++i)
    out[i] = static_cast<std::int8_t>(lines.TerrainCover(view, a, Checked(lines, cells(i))));
  return Levels(out, {cells.shape(0)}, owner);
}

nb::tuple SupercoverSteps(int width, int a, int b) {
  if (width < 1 || a < 0 || b < 0) throw std::out_of_range("cells and width must be positive");
  nb::list steps;
  for (const cwenv::Step& s : cwenv::Supercover(width, a, b))
    steps.append(s.second < 0 ? nb::make_tuple(s.first) : nb::make_tuple(s.first, s.second));
  return nb::tuple(steps);
}


// A map's steps for one MoveProfile, as paths.py flattens steps.py's table: per cell an
// offset into ``edges``, eight ints per step (to, metres, kind, drop, and X49's surcharge
// and parity after it from parity 0 and from parity 1).
Moves MakeMoves(int width, int height, const std::vector<int>& offsets,
                const std::vector<int>& edges, bool alternate) {
  if (width < 1 || height < 1) throw std::invalid_argument("the map must have cells");
  const int n = width * height;
  if (static_cast<int>(offsets.size()) != n + 1 || offsets.front() != 0 ||
      edges.size() % 8 != 0 || offsets.back() != static_cast<int>(edges.size() / 8))
    throw std::invalid_argument("offsets must index every cell's steps, eight ints a step");
  std::vector<cwenv::Edge> out;
  out.reserve(edges.size() / 8);
  for (std::size_t i = 0; i < edges.size(); i += 8) {
    const int* e = &edges[i];
    // The search relies on every step costing at least one metre (Dial's layers).
    if (e[0] < 0 || e[0] >= n || e[1] < 1 || e[2] < 0 || e[2] >= cwenv::kKinds ||
        e[3] < 0 || e[4] < 0 || e[5] < 0 || e[6] < 0 || e[6] > 1 || e[7] < 0 || e[7] > 1)
      throw std::invalid_argument("step " + std::to_string(i / 8) + " is malformed");
    out.push_back({e[0], e[1], static_cast<cwenv::StepKind>(e[2]), e[3], {e[4], e[5]},
                   {e[6], e[7]}});
  }
  for (int c = 0; c < n; ++c)
    if (offsets[c] > offsets[c + 1]) throw std::invalid_argument("offsets must not decrease");
  return Moves(width, height, offsets, std::move(out), alternate);
}

std::vector<int> CellsOf(const Moves& moves, const nb::iterable& cells) {
  std::vector<int> out;
  for (nb::handle h : cells) out.push_back(Checked(moves.size(), nb::cast<int>(h)));
  return out;
}

Routes Search(const Moves& moves, const nb::bytearray& blocked, int start, int budget,
              const nb::iterable& occupied, const nb::iterable& passable,
              const std::optional<std::vector<std::tuple<int, int, int>>>& guards,
              int geometry, bool difficult, int parity, bool after_free) {
  if (static_cast<int>(blocked.size()) != moves.size())
    throw std::invalid_argument("blocked has " + std::to_string(blocked.size()) +
                                " cells; the map " + std::to_string(moves.size()));
  if (budget < 0) throw std::out_of_range("the budget must not be negative");
  if (geometry < 0 || geometry > 2) throw std::invalid_argument("unknown blockade geometry");
  std::vector<cwenv::Guard> threat;
  if (guards)
    for (const auto& [x, y, reach] : *guards) threat.push_back({x, y, reach});
  const std::vector<int> occ = CellsOf(moves, occupied), pass = CellsOf(moves, passable);
  const cwenv::Query q{
      .blocked = {reinterpret_cast<const std::uint8_t*>(blocked.c_str()), blocked.size()},
      .start = Checked(moves.size(), start),
      .budget = budget,
      .occupied = occ,
      .passable = pass,
      .guards = threat,
      .geometry = static_cast<cwenv::Geometry>(geometry),
      .threat = guards.has_value(),
      .difficult = difficult,
      .parity = parity,
  };
  if (!difficult || !after_free) return moves.Search(q);
  cwenv::Query free = q;
  free.difficult = false;
  return moves.SearchDifficult(q, moves.Search(free));  // as the turn searches
}

// Pickling (and so copy.deepcopy) of a search result: its tables as lists, their shape
// checked on the way back in.
using RoutesState = std::tuple<int, int, int, bool, std::vector<int>, std::vector<int>,
                               std::vector<int>, std::vector<int>, std::vector<int>>;

RoutesState SaveRoutes(const Routes& routes) {
  auto s = routes.Save();
  return {s.start_key, s.mult, s.par, s.difficult, s.best, s.prov, s.pred, s.drop, s.dests};
}

void LoadRoutes(Routes& out, const RoutesState& t) {
  Routes::State s{std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t),
                  std::get<4>(t), std::get<5>(t), std::get<6>(t), std::get<7>(t),
                  std::get<8>(t)};
  const std::size_t states = s.best.size();
  const bool ok = (s.mult == 1 || s.mult == cwenv::kKinds) && (s.par == 1 || s.par == 2) &&
                  states % (s.mult * s.par) == 0 && s.prov.size() == states &&
                  s.pred.size() == states && s.drop.size() == states && s.start_key >= 0 &&
                  static_cast<std::size_t>(s.start_key) < states &&
                  std::all_of(s.pred.begin(), s.pred.end(),
                              [&](int k) { return k >= -1 && k < static_cast<int>(states); }) &&
                  std::all_of(s.dests.begin(), s.dests.end(), [&](int c) {
                    return c >= 0 && static_cast<std::size_t>(c) < states / (s.mult * s.par);
                  });
  if (!ok) throw std::invalid_argument("not the state of a movement search");
  new (&out) Routes(Routes::Load(std::move(s)));
}

// Test-only (faults.hpp): plant one named deviation from the reference, or none.
void PlantFault(const std::string& name) {
  if (name == "provocation_tie") cwenv::g_fault = cwenv::Fault::kProvocationTie;
  else if (name == "cover_level") cwenv::g_fault = cwenv::Fault::kCoverLevel;
  else if (name == "melee_reach_edge") cwenv::g_fault = cwenv::Fault::kMeleeReachEdge;
  else if (name == "guard_reach") cwenv::g_fault = cwenv::Fault::kGuardReach;
  else if (name == "extra_action_twice") cwenv::g_fault = cwenv::Fault::kExtraActionTwice;
  else if (name == "living_cover_tie") cwenv::g_fault = cwenv::Fault::kLivingCoverTie;
  else if (name == "sync_lp") cwenv::g_fault = cwenv::Fault::kSyncLp;
  else if (name == "last_reaction") cwenv::g_fault = cwenv::Fault::kLastReaction;
  else if (name == "sync_aim") cwenv::g_fault = cwenv::Fault::kSyncAim;
  else if (name == "plan_prone") cwenv::g_fault = cwenv::Fault::kPlanProne;
  else if (name == "strike_armour") cwenv::g_fault = cwenv::Fault::kStrikeArmour;
  else
    throw std::invalid_argument("unknown fault " + name +
                                "; choose provocation_tie, cover_level, melee_reach_edge, "
                                "guard_reach, extra_action_twice, living_cover_tie, sync_lp, "
                                "last_reaction, sync_aim, plan_prone or strike_armour");
}

nb::list Dests(const Routes& routes) {
  nb::list out;
  for (int c : routes.dests()) out.append(c);
  return out;
}

nb::tuple RouteOf(const Routes& routes, int cell) {
  const auto& dests = routes.dests();
  if (!std::binary_search(dests.begin(), dests.end(), cell))
    throw nb::key_error(std::to_string(cell).c_str());
  const cwenv::Route r = routes.Get(cell);
  nb::list cells;
  for (int c : r.cells) cells.append(c);
  nb::list spent;
  for (int m : r.spent) spent.append(m);
  return nb::make_tuple(nb::tuple(cells), r.metres, r.kind, r.provocations, r.drop,
                        r.first_hard, r.parity, nb::tuple(spent));
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "cwenv's native core (docs/native.md); cwenv/battlemap/los.py is its reference.";
  // Maps keep their Lines and Moves in BattleMap.edge_cache, and maps live in module-level
  // caches that Python does not clear before nanobind's exit check, so that check reports
  // them at every exit. Real growth is measured instead: benchmarks' RSS over 1M decisions.
  nb::set_leak_warnings(false);

  nb::class_<Lines>(m, "Lines", "Lines of fire and terrain cover on one battle map (C01, C02).")
      .def(nb::new_(&MakeLines), nb::arg("width"), nb::arg("height"), nb::arg("terrain"),
           "A map from its terrain values (``bytes(bm.terrain)``), row by row.")
      .def_prop_ro("size", &Lines::size)
      .def(
          "blocked",
          [](const Lines& l, const nb::bytearray& opaque, int a, int b) {
            return l.Blocked(Opacity(l, opaque), Checked(l, a), Checked(l, b));
          },
          nb::arg("opaque"), nb::arg("a"), nb::arg("b"),
          "True when some step of the line from ``a`` to ``b`` is wholly opaque.")
      .def(
          "terrain_cover",
          [](const Lines& l, const nb::bytearray& opaque, int a, int b) {
            return static_cast<int>(l.TerrainCover(Opacity(l, opaque), Checked(l, a), Checked(l, b)));
          },
          nb::arg("opaque"), nb::arg("a"), nb::arg("b"),
          "The CoverLevel value of the target at ``b`` against an attack from ``a``.")
      .def(
          "cells",
          [](const Lines& l, int a, int b) {
            std::vector<int> out;
            for (const cwenv::Step& step : cwenv::Supercover(l.width(), Checked(l, a), Checked(l, b))) {
              out.push_back(step.first);
              if (step.second >= 0) out.push_back(step.second);
            }
            return out;
          },
          nb::arg("a"), nb::arg("b"),
          "The cells between ``a`` and ``b`` in order from ``a`` (both of a corner pair): "
          "los.py's ``SightLine.cells``, computed per call.")
      .def("terrain_covers", &TerrainCovers, nb::arg("opaque"), nb::arg("a"), nb::arg("cells"),
           "terrain_cover for every cell of an int32 array, as an int8 numpy array.");

  nb::class_<Moves>(m, "Moves",
                    "The terrain steps of one map for one MoveProfile, and the movement search "
                    "over them (B01-B06, R04, X43, X48, X49).")
      .def(nb::new_(&MakeMoves), nb::arg("width"), nb::arg("height"), nb::arg("offsets"),
           nb::arg("edges"), nb::arg("alternate"),
           "A map's step table as paths.py flattens it (eight ints a step).")
      .def_prop_ro("size", &Moves::size)
      .def("search", &Search, nb::arg("blocked"), nb::arg("start"), nb::arg("budget"),
           nb::arg("occupied"), nb::arg("passable"), nb::arg("guards").none(),
           nb::arg("geometry"), nb::arg("difficult"), nb::arg("parity"),
           nb::arg("after_free") = true,
           "paths.py reachable: the cells reachable from ``start`` within ``budget`` metres. "
           "A difficult search runs after the free one, as a turn's does (the same routes, "
           "cheaper where no difficult step is in reach); ``after_free=False`` searches "
           "whole.");

  nb::class_<Routes>(m, "Routes", "The result of one movement search (paths.py Reach).")
      .def_prop_ro("dests", &Dests, "The destinations, in cell order.")
      .def("__getstate__", &SaveRoutes)
      .def("__setstate__", &LoadRoutes)
      .def("route", &RouteOf, nb::arg("cell"),
           "(cells, metres, kind, provocations, drop, first_hard, parity, spent) of the route to "
           "``cell``; KeyError when it is no destination.");

  m.def("_fault", &PlantFault, nb::arg("name"),
        "Test only: plant one deviation from the reference (provocation_tie, cover_level, "
        "melee_reach_edge, guard_reach, extra_action_twice, living_cover_tie, sync_lp, "
        "last_reaction, sync_aim).");
  m.def("_faults_off", [] { cwenv::g_fault = cwenv::Fault::kNone; },
        "Test only: the core answers as the reference again.");

  BindStream(m);
  BindKampf(m);
  BindEncode2(m);
  BindPrompts(m);
  BindPlan(m);
  BindCombat(m);

  m.def("supercover", &SupercoverSteps, nb::arg("width"), nb::arg("a"), nb::arg("b"),
        "The steps of the line from ``a`` to ``b`` (los.py's SightLine.steps).");
}
