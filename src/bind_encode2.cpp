// The Python face of the native encoder (encode2.hpp): _core.Encoder2, one game's tables
// beside its _core.Kampf, writing encoding 2's arrays straight into numpy buffers.
// Only conversions live here; the encoding is in encode2.cpp and standpoints2.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "encode2.hpp"

namespace nb = nanobind;
using namespace cwenv::encode2;

// bind_kampf.cpp: ``combat`` loaded into ``kampf``, and what it holds.
bool LoadKampf(nb::handle kampf, nb::handle combat, cwenv::kampf::KampfView& out);

namespace {

using F32 = nb::ndarray<float, nb::c_contig, nb::device::cpu>;
using CF32 = nb::ndarray<const float, nb::c_contig, nb::device::cpu>;
using WeaponTuple = std::tuple<bool, double, double, double, double>;
using DecisionTuple = std::tuple<int, bool, int, int, int, int>;

long long Int(PyObject* o) {
  const long long v = PyLong_AsLongLong(o);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

nb::object Attr(nb::handle o, const nb::object& name) {
  PyObject* v = PyObject_GetAttr(o.ptr(), name.ptr());
  if (!v) throw nb::python_error();
  return nb::steal(v);
}

std::span<float> Span(F32& a, std::size_t size, const char* what) {
  if (a.size() != size) throw std::invalid_argument(std::string(what) + ": wrong shape");
  return {a.data(), size};
}

class Encoder2 {
 public:
  Encoder2(nb::object kampf, double scale_map, int max_weapons, int n_conditions,
           int n_decisions, int round_limit, const std::vector<int>& handlung_kinds,
           std::vector<double> exit_distance, bool has_exits,
           std::vector<int> doors, std::vector<double> lp_max,
           const std::vector<std::array<double, 5>>& other_static,
           const std::vector<std::vector<WeaponTuple>>& weapons)
      : kampf_(std::move(kampf)) {
    t_.scale_map = scale_map, t_.max_weapons = max_weapons, t_.n_conditions = n_conditions;
    t_.n_decisions = n_decisions, t_.round_limit = round_limit;
    for (int kind : handlung_kinds) {
      if (kind < 0 || kind >= 64) throw std::invalid_argument("an action kind beyond 63");
      t_.handlung_kinds |= std::uint64_t{1} << kind;
    }
    t_.exit_distance = std::move(exit_distance);
    t_.has_exits = has_exits, t_.doors = std::move(doors), t_.lp_max = std::move(lp_max);
    t_.other_static = other_static;
    if (weapons.size() != t_.lp_max.size() || other_static.size() != t_.lp_max.size())
      throw std::invalid_argument("one weapon table and stat row per fighter");
    for (const auto& rows : weapons) {
      auto& out = t_.weapons.emplace_back();
      for (const auto& [melee, reach, damage, range30, damage20] : rows)
        out.push_back({melee, reach, damage, range30, damage20});
    }
    auto s = [](const char* n) { return nb::steal(PyUnicode_InternFromString(n)); };
    fighters_ = s("fighters"), reactions_ = s("reactions"), zehrend_ = s("zehrend");
    mumm_max_ = s("mumm_max");
  }

  // entities.py EntityEncoder.encode natively, into the four arrays; False (nothing
  // written) when the combat is not the Kampf's game.
  bool Entities(nb::handle combat, int decider, const std::vector<int>& rows, int n_allies,
                nb::handle legal, const DecisionTuple& decision, int k, CF32 terrain, F32 ents,
                F32 emask, F32 glob, F32 cmap) {
    cwenv::kampf::KampfView kv{};
    if (!LoadKampf(kampf_, combat, kv)) return false;
    const int n = static_cast<int>(kv.s->fighters.size());
    if (decider < 0 || decider >= n || rows.empty() || rows[0] != decider ||
        static_cast<int>(rows.size()) > static_cast<int>(ents.shape(0)) || n_allies < 0 ||
        n_allies >= static_cast<int>(rows.size()) || ents.ndim() != 2 ||
        static_cast<int>(t_.lp_max.size()) != n)
      throw std::invalid_argument("rows, decider or entity shape do not fit the combat");
    for (int j : rows)
      if (j < 0 || j >= n) throw std::out_of_range("no fighter " + std::to_string(j));
    const std::size_t width = ents.shape(1);
    if (width != static_cast<std::size_t>(14 + t_.n_conditions + 29))
      throw std::invalid_argument("entities: not encoding 2's entity features");
    ReadExtras(combat, n);
    ReadLegal(legal);
    const auto& [kind, has_total, total, context, turn_fighter, round] = decision;
    const Decision d{kind, has_total, total, context, turn_fighter, round};
    memo_.Refresh(*kv.s);
    const View v{*kv.g, *kv.lines, *kv.s, t_, extra_, memo_};
    std::span<float> e = Span(ents, ents.size(), "entities");
    std::fill(e.begin(), e.end(), 0.0f);
    std::span<float> mask = Span(emask, ents.shape(0), "entity_mask");
    std::fill(mask.begin(), mask.end(), 0.0f);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      EntityRow(v, d, decider, rows[r], e.subspan(r * width, width));
      mask[r] = 1.0f;
    }
    GlobalRow(v, d, decider, rows, n_allies, acts_, k,
              Span(glob, static_cast<std::size_t>(t_.n_decisions + 21), "global"));
    if (terrain.size() != cmap.size()) throw std::invalid_argument("map: wrong shape");
    MapRows(v, decider, {terrain.data(), terrain.size()}, Span(cmap, cmap.size(), "map"));
    return true;
  }

  // candidates.py's kind sets and Mumm prices (M01-M09), once per game.
  void SetCandidateTables(const std::vector<int>& cell_move, const std::vector<int>& odds,
                          const std::vector<int>& weapon_arg, std::vector<int> prices) {
    auto bits = [](const std::vector<int>& kinds) {
      std::uint64_t out = 0;
      for (int kind : kinds) {
        if (kind < 0 || kind >= 64) throw std::invalid_argument("an action kind beyond 63");
        out |= std::uint64_t{1} << kind;
      }
      return out;
    };
    if (prices.size() != 128) throw std::invalid_argument("one price per kind and Mumm flag");
    ct_ = {bits(cell_move), bits(odds), bits(weapon_arg), std::move(prices)};
  }

  // candidates.py CandidateEncoder.encode natively but the odds, into the arrays: the
  // candidates whose previews Python adds, or None (nothing written) when the combat is
  // not the Kampf's game or an action is unknown to the core.
  nb::object Candidates(nb::handle combat, int decider, const std::vector<int>& rows,
                        nb::handle legal, F32 feats, F32 kind, F32 target, F32 vs) {
    if (ct_.prices.empty()) throw std::logic_error("candidate_tables first");
    cwenv::kampf::KampfView kv{};
    if (!LoadKampf(kampf_, combat, kv)) return nb::none();
    const int n = static_cast<int>(kv.s->fighters.size());
    ReadLegal(legal);
    if (decider < 0 || decider >= n || rows.empty() || rows[0] != decider || vs.ndim() != 3 ||
        feats.ndim() != 2 || feats.shape(1) != 38 || vs.shape(0) != feats.shape(0) ||
        kind.size() != feats.shape(0) || target.size() != feats.shape(0) ||
        acts_.size() > feats.shape(0) || rows.size() > vs.shape(1) || vs.shape(2) != 2)
      throw std::invalid_argument("rows, decider or candidate shapes do not fit");
    for (int j : rows)
      if (j < 0 || j >= n) throw std::out_of_range("no fighter " + std::to_string(j));
    const std::size_t cells = kv.s->opaque.size();
    for (const ActRow& a : acts_)
      if (a.cell >= static_cast<int>(cells) || a.target >= n)
        throw std::out_of_range("an action off the map or at no fighter");
    covers_.Refresh(*kv.s);
    const View v{*kv.g, *kv.lines, *kv.s, t_, extra_, memo_};
    odds_.clear();
    if (!CandidateRows(v, ct_, decider, rows, acts_, covers_, static_cast<int>(vs.shape(1)),
                       {feats.data(), feats.size()}, {kind.data(), kind.size()},
                       {target.data(), target.size()}, {vs.data(), vs.size()}, odds_))
      return nb::none();
    return nb::cast(odds_);
  }

  // candidates.py _previews natively for the candidates in ``inputs`` (15 ints each, as
  // PreviewIn, previews_core.py): the eight odds columns of each into ``feats``; the exact
  // odds per (Probenwert, defence) from ``chances`` (preview.py _chances), kept. False
  // (nothing written) when the combat is not the Kampf's game.
  bool Previews(nb::handle combat, const std::vector<int>& inputs,
                const std::tuple<bool, int, int, int, bool>& rules, nb::handle chances,
                F32 feats) {
    constexpr int kFields = 15, kFirst = 30, kWidth = 38;  // attack_success onwards
    cwenv::kampf::KampfView kv{};
    if (!LoadKampf(kampf_, combat, kv)) return false;
    const int n = static_cast<int>(kv.s->fighters.size());
    if (inputs.size() % kFields || feats.ndim() != 2 || feats.shape(1) != kWidth)
      throw std::invalid_argument("previews: inputs or shapes do not fit");
    const auto& [nvm, zb, zqb, ep, afz] = rules;
    const PreviewRules r{nvm, zb, zqb, ep, afz};
    for (std::size_t k = 0; k < inputs.size(); k += kFields) {
      const int* x = inputs.data() + k;
      const PreviewIn in{x[0], x[1], x[2], x[3], x[4] != 0, x[5] != 0, x[6] != 0, x[7],
                         x[8] != 0, x[9] != 0, x[10], x[11] != 0, x[12], x[13], x[14] != 0};
      if (in.row < 0 || in.row >= static_cast<int>(feats.shape(0)) || in.actor < 0 ||
          in.actor >= n || in.target < 0 || in.target >= n ||
          in.band_weapon >= kv.g->specs[in.actor].n_weapons)
        throw std::out_of_range("previews: a candidate beyond the arrays or the fighters");
      const PreviewPlan plan = PlanPreview(*kv.g, *kv.lines, *kv.s, r, in);
      const std::pair<int, int> key{plan.probenwert, in.has_defence ? in.defence : kNoDefence};
      auto it = chances_.find(key);
      if (it == chances_.end()) {
        nb::object d = in.has_defence ? nb::cast(in.defence) : nb::none();
        const auto got = nb::cast<std::tuple<double, double, double>>(chances(plan.probenwert, d));
        it = chances_.emplace(key, Chances{std::get<0>(got), std::get<1>(got), std::get<2>(got)})
                 .first;
      }
      WritePreview(*kv.s, r, in, plan, it->second,
                   {feats.data() + static_cast<std::size_t>(in.row) * kWidth + kFirst, 8});
    }
    return true;
  }

 private:
  static constexpr int kNoDefence = -1 << 30;

  void ReadExtras(nb::handle combat, int n) {
    const nb::object fighters = Attr(combat, fighters_);
    extra_.resize(n);
    for (int i = 0; i < n; ++i) {
      nb::handle f = PyList_GET_ITEM(fighters.ptr(), i);
      const Py_ssize_t zehrend = PyObject_Length(Attr(f, zehrend_).ptr());
      if (zehrend < 0) throw nb::python_error();
      extra_[i] = {static_cast<int>(Int(Attr(f, reactions_).ptr())), static_cast<int>(zehrend),
                   static_cast<int>(Int(Attr(f, mumm_max_).ptr()))};
    }
  }

  void ReadLegal(nb::handle legal) {
    acts_.clear();
    for (nb::handle a : legal) {
      PyObject* t = a.ptr();
      if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 6)
        throw std::invalid_argument("a legal action that is no Action");
      int x[6];
      for (int i = 0; i < 6; ++i) x[i] = static_cast<int>(Int(PyTuple_GET_ITEM(t, i)));
      acts_.push_back({x[0], x[1], x[2], x[3], x[4], x[5]});
    }
  }

  nb::object kampf_;
  Tables t_;
  std::vector<Extra> extra_;
  std::vector<ActRow> acts_;
  SightMemo memo_;
  CoverCache covers_;
  CandidateTables ct_;
  std::vector<int> odds_;
  std::map<std::pair<int, int>, Chances> chances_;  // per (Probenwert, defence): A01-A05
  nb::object fighters_, reactions_, zehrend_, mumm_max_;
};

}  // namespace

void BindEncode2(nb::module_& m) {
  nb::class_<Encoder2>(m, "Encoder2",
                       "Encoding 2's encoder natively (src/encode2.hpp) for one game; "
                       "cwenv/envs/encode_core.py builds it beside the game's Kampf.")
      .def(nb::init<nb::object, double, int, int, int, int, const std::vector<int>&,
                    std::vector<double>, bool, std::vector<int>,
                    std::vector<double>, const std::vector<std::array<double, 5>>&,
                    const std::vector<std::vector<WeaponTuple>>&>(),
           nb::arg("kampf"), nb::arg("scale_map"), nb::arg("max_weapons"),
           nb::arg("n_conditions"), nb::arg("n_decisions"), nb::arg("round_limit"),
           nb::arg("handlung_kinds"), nb::arg("exit_distance"),
           nb::arg("has_exits"), nb::arg("doors"), nb::arg("lp_max"), nb::arg("other_static"),
           nb::arg("weapons"))
      .def("entities", &Encoder2::Entities, nb::arg("combat"), nb::arg("decider"),
           nb::arg("rows"), nb::arg("n_allies"), nb::arg("legal"), nb::arg("decision"),
           nb::arg("k"), nb::arg("terrain"), nb::arg("ents"), nb::arg("emask"), nb::arg("glob"),
           nb::arg("cmap"),
           "entities.py EntityEncoder.encode into the arrays; False when the combat is not "
           "the game's (nothing written).")
      .def("candidate_tables", &Encoder2::SetCandidateTables, nb::arg("cell_move"),
           nb::arg("odds"), nb::arg("weapon_arg"), nb::arg("prices"),
           "candidates.py's kind sets and the Mumm price per kind * 2 + pays Mumm (-1: unknown).")
      .def("candidates", &Encoder2::Candidates, nb::arg("combat"), nb::arg("decider"),
           nb::arg("rows"), nb::arg("legal"), nb::arg("feats"), nb::arg("kind"),
           nb::arg("target"), nb::arg("vs"),
           "candidates.py CandidateEncoder.encode but the odds, into the arrays: the indices "
           "whose previews Python adds; None when the core cannot answer (nothing written).")
      .def("previews", &Encoder2::Previews, nb::arg("combat"), nb::arg("inputs"),
           nb::arg("rules"), nb::arg("chances"), nb::arg("feats"),
           "candidates.py _previews natively for the candidates in inputs (15 ints each, "
           "previews_core.py); False when the combat is not the game's (nothing written).");
  m.def(
      "_encode2_fault",
      [](const std::string& name) {
        if (name == "threat_edge") g_encode_fault = EncodeFault::kThreatEdge;
        else if (name == "vs_distance") g_encode_fault = EncodeFault::kVsDistance;
        else if (name == "preview_range") g_encode_fault = EncodeFault::kPreviewRange;
        else if (name == "off") g_encode_fault = EncodeFault::kNone;
        else
          throw std::invalid_argument("unknown encoder fault " + name +
                                      "; threat_edge, vs_distance, preview_range or off");
      },
      nb::arg("name"),
      "Test only: plant a deviation in the native encoder (threat_edge, vs_distance, "
      "preview_range), or take "
      "it back (off).");
}
