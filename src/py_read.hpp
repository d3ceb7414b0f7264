// Reading Python attributes and ints from C++ with Python's error raised as
// nb::python_error (defined in sync.cpp): shared by the event sync and the native
// combat's mirror (bind_mirror.cpp).
#pragma once

#include <nanobind/nanobind.h>

namespace cwenv::kampf::sync_detail {

namespace nb = nanobind;

nb::object Get(nb::handle o, const nb::object& name);
long long Int(PyObject* o);
long long Int(nb::handle o, const nb::object& name);

}  // namespace cwenv::kampf::sync_detail
