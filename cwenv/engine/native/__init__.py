"""The native combat (issue #16): the Kampfrunde run by the C++ core behind the reference's
``Combat`` face (docs/native.md "The native combat")."""
