// The Python face of the native core: cwenv._core (nanobind). Only conversions live
// here; the rules are in the other files of src/.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "los.hpp"

namespace nb = nanobind;
using cwenv::Lines;

namespace {

// Opacity is the combat's bytearray overlay (1 = blocks sight), one byte per cell.
std::span<const std::uint8_t> Opacity(const Lines& lines, const nb::bytearray& opaque) {
  if (static_cast<int>(opaque.size()) != lines.size())
    throw std::invalid_argument("opacity has " + std::to_string(opaque.size()) +
                                " cells; the map " + std::to_string(lines.size()));
  return {reinterpret_cast<const std::uint8_t*>(opaque.c_str()), opaque.size()};
}

int Checked(const Lines& lines, int cell) {
  if (cell < 0 || cell >= lines.size())
    throw std::out_of_range("cell " + std::to_string(cell) + " is off the map");
  return cell;
}

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

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "cwenv's native core (docs/native.md); cwenv/battlemap/los.py is its reference.";

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
      .def("terrain_covers", &TerrainCovers, nb::arg("opaque"), nb::arg("a"), nb::arg("cells"),
           "terrain_cover for every cell of an int32 array, as an int8 numpy array.");

  m.def("supercover", &SupercoverSteps, nb::arg("width"), nb::arg("a"), nb::arg("b"),
        "The steps of the line from ``a`` to ``b`` (los.py's SightLine.steps).");
}
