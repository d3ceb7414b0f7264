// A clone's kept state (sync.hpp EventSync::CloneHeld): a copy of its original's instead
// of a whole import on first use, what a search pays for every clone it plays on.
#include "sync.hpp"

namespace cwenv::kampf {

nb::object EventSync::CloneHeld(nb::handle token, const State& live) const {
  if (!configured_ || !nb::isinstance<Held>(token)) return nb::none();
  const Held* from = nb::inst_ptr<Held>(token);
  // Refused, as SyncOnce refuses it: another Kampf's, a generation Forget made stale, or
  // one Abandon left at -1 (its events were not all applied, some not idempotent).
  if (from->owner != this || from->generation != generation_) return nb::none();
  nb::object twin = nb::type<Held>()();
  Held* to = nb::inst_ptr<Held>(twin);
  to->owner = this, to->generation = generation_;
  to->state = from == cur_ ? live : from->state;  // cur_'s live copy is the Kampf's
  to->consumed = from->consumed, to->last = from->last, to->attacking = from->attacking;
  return twin;
}

}  // namespace cwenv::kampf
