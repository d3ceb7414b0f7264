// The Python face of the dice stream (src/stream.hpp): cwenv._core.Pcg32. Conversions only.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <string>
#include <vector>

#include "stream.hpp"

namespace nb = nanobind;
using cwenv::Pcg32;

namespace {

nb::object Owned(PyObject* p) {
  if (p == nullptr) throw nb::python_error();
  return nb::steal(p);
}

// stream.py seed_words: a Python int of any size, as its zigzag's 64-bit words (the
// reference refuses bool and every other type with SeedError, a ValueError; so does this).
Pcg32 FromPySeed(nb::handle seed) {
  if (PyBool_Check(seed.ptr()) || !PyLong_Check(seed.ptr()))
    throw nb::value_error(("a dice seed is an int, not " +
                           std::string(nb::type_name(seed.type()).c_str())).c_str());
  int overflow = 0;
  const long long small = PyLong_AsLongLongAndOverflow(seed.ptr(), &overflow);
  if (overflow == 0) {
    if (small == -1 && PyErr_Occurred()) throw nb::python_error();
    return Pcg32::FromSeed(small);
  }
  nb::object two = Owned(PyLong_FromLong(2));
  nb::object z = Owned(PyNumber_Multiply(seed.ptr(), two.ptr()));
  if (overflow < 0) {  // -2*s - 1 = ~(2*s)
    z = Owned(PyNumber_Invert(z.ptr()));
  }
  nb::object mask = Owned(PyLong_FromUnsignedLongLong(~0ULL));
  nb::object shift = Owned(PyLong_FromLong(64));
  std::vector<std::uint64_t> words;
  for (;;) {
    nb::object low = Owned(PyNumber_And(z.ptr(), mask.ptr()));
    words.push_back(PyLong_AsUnsignedLongLong(low.ptr()));
    z = Owned(PyNumber_Rshift(z.ptr(), shift.ptr()));
    if (!PyObject_IsTrue(z.ptr())) break;
  }
  return Pcg32::FromWords(words);
}

using Faces = nb::ndarray<nb::numpy, std::int8_t, nb::ndim<1>>;

Faces D10s(Pcg32& rng, std::size_t n) {
  auto* out = new std::int8_t[n];
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::int8_t>(rng.D10());
  nb::capsule owner(out, [](void* p) noexcept { delete[] static_cast<std::int8_t*>(p); });
  return Faces(out, {n}, owner);
}

}  // namespace

void BindStream(nb::module_& m) {
  nb::class_<Pcg32>(m, "Pcg32",
                    "PCG32 (XSH-RR 64/32) seeded as cwenv/rules/stream.py; W10s without bias.")
      .def(nb::new_(&FromPySeed), nb::arg("seed").none(), "The stream of a dice seed (any int).")
      .def_static("from_srandom", &Pcg32::Srandom, nb::arg("initstate"), nb::arg("initseq"),
                  "O'Neill's pcg32_srandom_r(initstate, initseq).")
      .def_static("from_state", &Pcg32::FromState, nb::arg("state"), nb::arg("inc"),
                  "A stream in the given state (inc odd).")
      .def_prop_ro("state", &Pcg32::state)
      .def_prop_ro("inc", &Pcg32::inc)
      .def("next_u32", &Pcg32::Next, "The next 32-bit output.")
      .def(
          "bounded",
          [](Pcg32& rng, std::uint32_t bound) {
            if (bound == 0) throw nb::value_error("bound 0 is not in 1..2**32-1");
            return rng.Bounded(bound);
          },
          nb::arg("bound"), "pcg32_boundedrand_r: uniform in 0..bound-1.")
      .def("d10", &Pcg32::D10, "One W10 (bounded(10) + 1).")
      .def("d10s", &D10s, nb::arg("n"), "The next n W10s as an int8 numpy array.")
      .def("clone", [](const Pcg32& rng) { return rng; }, "An independent copy.");
}
