// aeval._metrics: the metric catalog for Python (python/aeval/__init__.py wraps it). Text metrics take
// lists of str, audio and embedding metrics NumPy arrays; results are the dicts `aeval score` prints.
// The GIL is released while a metric computes (a text metric: on 1 KB of text or more); the metrics share no
// state, so calls may run in threads.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aeval/error.hpp"
#include "aeval/metrics/audio_pair.hpp"
#include "aeval/metrics/catalog.hpp"
#include "aeval/metrics/embedding.hpp"
#include "aeval/metrics/embedding_pair.hpp"
#include "python/convert.hpp"

namespace aeval::python {

namespace {

const char* input_name(metrics::MetricInput input) {
  switch (input) {
    case metrics::MetricInput::text: return "text";
    case metrics::MetricInput::numbers: return "numbers";
    case metrics::MetricInput::audio: return "audio";
    case metrics::MetricInput::embeddings: return "embeddings";
    case metrics::MetricInput::audio_alone: return "audio alone";
  }
  return "";
}

py::list list_metrics() {
  py::list out;
  const auto describe = [&](const metrics::MetricInfo& m, const std::vector<std::string>& parameters) {
    py::dict d;
    d["name"] = m.name;
    d["summary"] = m.summary;
    d["reference"] = m.reference;
    d["input"] = input_name(m.input);
    d["better"] = m.better == metrics::Better::higher ? "higher" : "lower";
    d["parameters"] = parameters;
    out.append(d);
  };
  for (const auto& m : metrics::text_metrics()) describe(m, m.parameters);
  for (const auto& m : metrics::signal_metrics()) describe(m, {});
  return out;
}

const metrics::TextMetric& text_metric(const std::string& name) {
  const metrics::TextMetric* m = metrics::find_text_metric(name);
  if (!m) throw py::value_error("metric: no text metric named '" + name + "' (aeval.metrics() lists them)");
  return *m;
}

// A text metric's result as the library computed it: the value crosses at once (score_text returns the value
// and a capsule holding this), the details, segments and parameters become Python objects when first read
// (text_details etc.; building dicts nobody reads was most of a tiny call).
struct TextScore {
  const metrics::TextMetric* metric = nullptr;
  metrics::TextMetricOptions options;  // the parameters' values are read from these when asked for
  nlohmann::json corpus;
  std::vector<nlohmann::json> segments;

  py::object value() const {
    if (!corpus.is_object()) return to_python(corpus);
    const auto v = corpus.find(metric->key);
    return v == corpus.end() ? py::none() : to_python(*v);
  }

  // (value, capsule): a capsule, not a class instance, so a tiny call skips pybind11's instance registry.
  static py::tuple with_value(TextScore&& score) {
    py::object value = score.value();
    py::capsule native(new TextScore(std::move(score)), kName,
                       [](PyObject* o) { delete static_cast<TextScore*>(PyCapsule_GetPointer(o, kName)); });
    return py::make_tuple(std::move(value), std::move(native));
  }

  static const TextScore& of(const py::handle& native) {
    auto* score = static_cast<const TextScore*>(PyCapsule_GetPointer(native.ptr(), kName));
    if (!score) throw py::error_already_set();
    return *score;
  }

  static constexpr const char* kName = "aeval.TextScore";
};

// Releases the GIL around a metric with enough text for another thread to use the time; a tiny call would spend
// more on the hand-over (a mutex and a condition variable each way) than on its metric.
class GilReleasedFor {
 public:
  explicit GilReleasedFor(const metrics::Segments& s) {
    std::size_t bytes = 0;
    for (const auto& h : s.hypotheses) bytes += h.size();
    for (const auto& refs : s.references)
      for (const auto& r : refs) bytes += r.size();
    if (bytes >= 1024) release_.emplace();
  }

 private:
  std::optional<py::gil_scoped_release> release_;
};

py::tuple score_text(const std::string& name, const py::handle& hypotheses, const py::handle& references,
                     const py::dict& parameters) {
  const metrics::TextMetric& metric = text_metric(name);
  metrics::Segments segments;
  segments.hypotheses = strings(hypotheses, "hypotheses");
  if (!py::isinstance<py::list>(references) && !py::isinstance<py::tuple>(references))
    throw py::type_error("references must be a list (of str, or of lists of str)");
  segments.references.reserve(segments.hypotheses.size());
  for (const auto& r : references) {
    if (py::isinstance<py::str>(r))
      segments.references.emplace_back(1, r.cast<std::string>());
    else
      segments.references.push_back(strings(r, "each item of references"));
  }
  if (segments.references.size() != segments.hypotheses.size())
    throw py::value_error("references and hypotheses differ in number (" + std::to_string(segments.references.size()) +
                          " and " + std::to_string(segments.hypotheses.size()) + ")");
  metrics::TextMetricOptions options;
  for (const auto& [key, value] : parameters) {
    const std::string parameter = py::str(key);
    if (std::find(metric.parameters.begin(), metric.parameters.end(), parameter) == metric.parameters.end())
      throw py::type_error(name + " takes no parameter '" + parameter + "'" +
                           (metric.parameters.empty() ? ""
                                                      : fmt::format(" (it takes: {})", fmt::join(metric.parameters, ", "))));
    metrics::text_parameter(parameter).set(options, to_json(value, parameter));
  }
  TextScore out{&metric, std::move(options), {}, {}};
  {
    const GilReleasedFor release(segments);
    out.corpus = metric.score(segments, out.options, &out.segments);
  }
  return TextScore::with_value(std::move(out));
}

std::vector<double> doubles(const py::handle& o, const std::string& what) {
  const auto a = real_array(o, what, 1);
  return std::vector<double>(a.data(), a.data() + a.size());
}

// Statistics straight from numbers (arrays or lists of numbers): no text round trip.
py::tuple score_numbers(const std::string& name, const py::handle& hypotheses, const py::handle& references) {
  const metrics::TextMetric& metric = text_metric(name);
  if (!metric.numbers) throw py::value_error("metric: '" + name + "' is not a metric of numbers");
  const auto as_array = [](const py::handle& o) {
    return py::isinstance<py::array>(o) ? py::reinterpret_borrow<py::object>(o) : py::module_::import("numpy").attr("asarray")(o);
  };
  const std::vector<double> y = doubles(as_array(hypotheses), "hypotheses"), x = doubles(as_array(references), "references");
  if (x.size() != y.size())
    throw py::value_error("references and hypotheses differ in number (" + std::to_string(x.size()) + " and " +
                          std::to_string(y.size()) + ")");
  TextScore out{&metric, {}, {}, {}};
  {
    const py::gil_scoped_release release;
    out.corpus = metric.numbers(x, y);
  }
  return TextScore::with_value(std::move(out));
}

Audio to_audio(const py::handle& samples, int sample_rate, const std::string& what) {
  const auto a = real_array(samples, what, 1);
  if (sample_rate <= 0) throw py::value_error("sample_rate must be positive, not " + std::to_string(sample_rate));
  Audio audio;
  audio.sample_rate = sample_rate;
  audio.channels = 1;
  audio.samples.assign(a.data(), a.data() + a.size());
  return audio;
}

py::dict score_audio(const std::string& metric, const py::handle& reference, const py::handle& degraded, int sample_rate,
                     bool trim, int compare_rate) {
  if (!metrics::find_audio_metric(metric))
    throw py::value_error("metric: no audio metric named '" + metric + "' (aeval.metrics() lists them)");
  Audio ref = to_audio(reference, sample_rate, "reference"), deg = to_audio(degraded, sample_rate, "degraded");
  metrics::AudioPairOptions options;
  options.trim = trim;
  options.how_to_trim = "trim=True";
  options.sample_rate = compare_rate;
  metrics::AudioPairScore s;
  {
    const py::gil_scoped_release release;
    s = metrics::score_audio_pair(metric, std::move(ref), std::move(deg), options, "reference", "degraded");
  }
  py::dict out;
  out["value"] = s.value;
  out["sample_rate"] = s.sample_rate;
  out["penalty"] = s.penalty ? py::object(py::float_(*s.penalty)) : py::none();
  out["notes"] = s.notes;
  return out;
}

NpyArray to_npy(const py::handle& o, const std::string& what) {
  const auto a = real_array(o, what, 2);
  NpyArray n;
  for (py::ssize_t d = 0; d < a.ndim(); ++d) n.shape.push_back(std::size_t(a.shape(d)));
  n.values.assign(a.data(), a.data() + a.size());
  return n;
}

py::dict score_embeddings(const std::string& metric, const py::handle& a, const py::handle& b, double p, double lambda,
                          bool float64) {
  const metrics::EmbeddingMetric* spec = metrics::find_embedding_metric(metric);
  if (!spec) {
    std::vector<std::string> names;
    for (const auto& m : metrics::embedding_metrics()) names.push_back(m.name);
    throw py::value_error(fmt::format("metric: no embedding metric named '{}' ({})", metric, fmt::join(names, ", ")));
  }
  const NpyArray first = to_npy(a, spec->sets ? "the first set" : "generated"),
                 second = to_npy(b, spec->sets ? "the second set" : "reference");
  py::dict out;
  if (spec->sets) {
    metrics::FrechetResult r;
    {
      const py::gil_scoped_release release;
      r = spec->sets(metrics::embedding_statistics(first, "the first set"),
                     metrics::embedding_statistics(second, "the second set"));
    }
    out["value"] = r.distance;
    out["warnings"] = r.warnings;
    return out;
  }
  metrics::AudioBertScoreOptions o;
  o.p = p;
  o.lambda = lambda;
  o.arithmetic = float64 ? metrics::Arithmetic::float64 : metrics::Arithmetic::float32;
  metrics::EmbeddingPairScore s;
  {
    const py::gil_scoped_release release;
    s = spec->pair(metrics::to_matrix(first, "generated"), metrics::to_matrix(second, "reference"), o);
  }
  out["value"] = s.value;
  if (s.precision) {
    out["f1"] = s.value;
    out["precision"] = *s.precision;
    out["recall"] = *s.recall;
  }
  if (!s.rows.empty()) out["rows"] = s.rows;
  return out;
}

}  // namespace

PYBIND11_MODULE(_metrics, m) {
  m.doc() = "aeval's metric catalog (use the aeval package, not this module)";
  // aeval::Error (bad data, bad configuration) reaches Python as ValueError with its message.
  py::register_exception_translator([](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const Error& error) {
      PyErr_SetString(PyExc_ValueError, error.what());
    }
  });
  m.def("text_details", [](const py::handle& native) { return to_python(TextScore::of(native).corpus); });
  m.def("text_segments", [](const py::handle& native) {
    py::list out;
    for (const auto& segment : TextScore::of(native).segments) out.append(to_python(segment));
    return out;
  });
  m.def("text_parameters", [](const py::handle& native) {
    const TextScore& s = TextScore::of(native);
    return to_python(s.metric->parameter_values(s.options));
  });
  m.def("list_metrics", &list_metrics);
  m.def("score_text", &score_text, py::arg("metric"), py::arg("hypotheses"), py::arg("references"),
        py::arg("parameters"));
  m.def("score_numbers", &score_numbers, py::arg("metric"), py::arg("hypotheses"), py::arg("references"));
  m.def("score_audio", &score_audio, py::arg("metric"), py::arg("reference"), py::arg("degraded"),
        py::arg("sample_rate"), py::arg("trim"), py::arg("compare_rate"));
  m.def("score_embeddings", &score_embeddings, py::arg("metric"), py::arg("a"), py::arg("b"), py::arg("p"),
        py::arg("lambda_"), py::arg("float64"));
}

}  // namespace aeval::python
