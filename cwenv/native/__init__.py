"""Tools that hold the two engines to one another (issue #16, docs/native.md): the
differential test of whole seeded games under the Python reference and the native core."""
