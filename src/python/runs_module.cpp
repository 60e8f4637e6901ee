// aeval._runs: runs for Python, with the CLI's registry, cache and resume (python/aeval/__init__.py
// wraps it). A model may be a Python callable: the class `python_callable` answers each request by
// calling the function registered under the entry's name, holding the GIL only for that call.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <fmt/format.h>

#include <map>
#include <mutex>

#include "aeval/error.hpp"
#include "aeval/models/model.hpp"
#include "aeval/pipeline/runner.hpp"
#include "dnsmos/dnsmos.hpp"
#include "models/dnsmos_models.hpp"
#include "models/model_classes.hpp"
#include "run/invocation.hpp"
#include "tasks/task.hpp"
#include "python/convert.hpp"
#include "registry/args.hpp"
#include "registry/registry.hpp"

namespace aeval::python {

namespace {

std::mutex& callables_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, py::object>& callables() {
  static auto* functions = new std::map<std::string, py::object>;  // never destroyed: Python owns the objects
  return *functions;
}

// The request as the callable gets it: {"sample_id", "messages", "fields", "audio": [float32 arrays]}.
py::dict request_dict(const models::Request& request, int sample_rate) {
  py::list audio;
  for (const auto& a : request.audio) {
    py::array_t<float> samples(py::ssize_t(a.samples.size()));
    std::copy(a.samples.begin(), a.samples.end(), samples.mutable_data());
    audio.append(samples);
  }
  py::list messages;
  for (const auto& m : request.messages) {
    py::list content;
    for (const auto& part : m.parts) {
      py::dict d;
      d["type"] = part.type == models::Part::Type::text ? "text" : "audio";
      if (part.type == models::Part::Type::text) d["text"] = part.text;
      else d["audio"] = audio[part.audio_index];
      content.append(d);
    }
    py::dict message;
    message["role"] = m.role;
    message["content"] = content;
    messages.append(message);
  }
  py::dict d;
  d["sample_id"] = request.sample_id;
  d["messages"] = messages;
  d["fields"] = to_python(request.fields);
  d["audio"] = audio;
  d["sample_rate"] = sample_rate;
  return d;
}

// "model 'm': the Python environment of /usr/bin/python3 has no module 'numpy' (WHY): install it ..." for a
// ModuleNotFoundError: the interpreter running the callable is the one that lacks it.
std::string missing_module(const py::error_already_set& e, const std::string& model, const std::string& why) {
  const py::object name = e.value().attr("name");
  std::string module = name.is_none() ? std::string("?") : name.cast<std::string>();
  module = module.substr(0, module.find('.'));  // a package's submodule: the package is what is missing
  const std::string python = py::module_::import("sys").attr("executable").cast<std::string>();
  return fmt::format("model '{}': the Python environment of {} has no module '{}' ({}): install it there, e.g. "
                     "`{} -m pip install {}`",
                     model, python, module, why, python, module);
}

class PythonCallable final : public models::BlockingModel {
 public:
  PythonCallable(std::string name, int sample_rate, int concurrency)
      : name_(std::move(name)), sample_rate_(sample_rate), concurrency_(concurrency) {}

  int input_sample_rate() const override { return sample_rate_; }
  int max_concurrency() const override { return concurrency_; }
  // A model under training changes between calls with the same name: never answered from the cache.
  bool cacheable() const override { return false; }
  nlohmann::json identity() const override {
    return {{"name", name_}, {"class", "python_callable"}, {"input_sample_rate", sample_rate_}};
  }

 protected:
  models::Response compute(const models::Request& request) override {
    const py::gil_scoped_acquire gil;
    py::object function;
    {
      const std::lock_guard lock(callables_mutex());
      const auto found = callables().find(name_);
      if (found == callables().end())
        throw Error(ErrorCategory::config, fmt::format("model '{}': no Python callable is registered under it", name_));
      function = found->second;
    }
    // Building the request imports numpy (its audio arrays): a failure there is the environment's, not the function's.
    py::dict arguments;
    try {
      arguments = request_dict(request, sample_rate_);
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_ModuleNotFoundError))
        throw Error(ErrorCategory::model, missing_module(e, name_, "aeval needs it to hand audio to a Python model"));
      throw Error(ErrorCategory::internal, fmt::format("model '{}': cannot build its request: {}", name_, e.what()));
    }
    py::object answer;
    try {
      answer = function(arguments);
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_ModuleNotFoundError))
        throw Error(ErrorCategory::model, missing_module(e, name_, "the model's code imports it"));
      throw Error(ErrorCategory::model, fmt::format("model '{}' raised {}", name_, e.what()));
    }
    models::Response r;
    if (py::isinstance<py::str>(answer)) {
      r.text = answer.cast<std::string>();
    } else if (py::isinstance<py::dict>(answer)) {
      const auto d = answer.cast<py::dict>();
      if (d.contains("text")) r.text = py::str(d["text"]).cast<std::string>();
      if (d.contains("scores")) r.scores = to_json(d["scores"], "scores");
    } else {
      throw Error(ErrorCategory::model, fmt::format("model '{}' returned {}: return a str, or a dict with text/scores",
                                                    name_, std::string(py::str(answer.get_type()))));
    }
    return r;
  }

 private:
  std::string name_;
  int sample_rate_, concurrency_;
};

namespace arg = registry::arg;
const models::ModelClasses::Registration kPythonCallableClass{
    {registry::Kind::model, "python_callable",
     "A Python function answering each request (aeval.run(model=callable) registers it; Python only)",
     {arg::integer("input_sample_rate", 16000, "rate of the audio arrays it gets (0: none)"),
      arg::integer("max_concurrency", 1, "calls at once (the GIL is held during each)").at_least(1)}},
    [](const registry::Args& args) -> std::unique_ptr<models::Model> {
      return std::make_unique<PythonCallable>(args.entry().name, args.integer("input_sample_rate"),
                                              args.integer("max_concurrency"));
    }};

void register_callable(const std::string& name, py::object function) {
  if (!PyCallable_Check(function.ptr())) throw py::type_error("model must be callable");
  const std::lock_guard lock(callables_mutex());
  callables()[name] = std::move(function);
}

std::optional<std::vector<std::string>> optional_strings(const py::object& o, const std::string& what) {
  if (o.is_none()) return std::nullopt;
  if (py::isinstance<py::str>(o)) return std::vector<std::string>{o.cast<std::string>()};
  return strings(o, what);
}

std::optional<std::string> optional_text(const py::object& o) {
  return o.is_none() ? std::nullopt : std::optional<std::string>(o.cast<std::string>());
}

py::dict run(const py::object& task, const py::object& model, const py::object& dataset, const py::object& prompt,
             const py::object& post_process, const py::object& evaluators, const py::object& aggregators,
             const std::vector<std::string>& sets, const std::vector<std::string>& registries, const std::string& output,
             std::size_t limit, int jobs, bool use_cache, bool quiet, const std::vector<std::string>& command_line) {
  pipeline::Invocation inv;
  inv.registry = {registry::builtin_registry_dir()};
  for (const auto& r : registries) inv.registry.emplace_back(r);
  inv.sets = sets;
  pipeline::TaskOverrides overrides;
  overrides.dataset = optional_text(dataset);
  overrides.model = optional_text(model);
  overrides.prompt = optional_text(prompt);
  overrides.post_process = optional_strings(post_process, "post_process");
  overrides.evaluators = optional_strings(evaluators, "evaluators");
  overrides.aggregators = optional_strings(aggregators, "aggregators");
  pipeline::RunOptions options;
  options.output_root = output;
  options.jobs = jobs;
  options.use_cache = use_cache;
  options.log = quiet ? nullptr : stderr;
  options.command_line = command_line;
  pipeline::RunResult result;
  {
    const py::gil_scoped_release release;  // a callable model takes the GIL back for its calls
    const registry::Registry registry =
        pipeline::bind_task(inv, task.is_none() ? "" : task.cast<std::string>(), overrides);
    inv.limit = limit;
    result = pipeline::run_task(registry, inv, options);
  }
  py::dict out;
  out["summary"] = to_python(result.summary);
  out["run_dir"] = result.run_dir.string();
  out["samples_run"] = result.session.samples_run;
  out["cached_responses"] = result.session.cached_responses;
  out["elapsed_seconds"] = result.session.elapsed_seconds;
  out["first_error"] = result.session.first_error;
  return out;
}

// DNSMOS of one clip. Scorers (the networks' weights) are kept per models argument and options: a loop
// over clips finds its folder and loads the weights once. The GIL is released while the networks run.
py::dict dnsmos(const py::handle& samples, int sample_rate, const std::string& models, bool personalized,
                const std::string& p808_features) {
  const auto features = dnsmos::p808_features_named(p808_features);
  if (!features)
    throw py::value_error("p808_features is 'librosa-0.8.1' (the pinned default) or 'librosa-0.9', not '" +
                          p808_features + "'");
  if (sample_rate <= 0) throw py::value_error("sample_rate must be positive, not " + std::to_string(sample_rate));
  const auto audio = real_array(samples, "samples", 1);
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const dnsmos::Scorer>> scorers;
  std::shared_ptr<const dnsmos::Scorer> scorer;
  nlohmann::json clip;
  {
    const py::gil_scoped_release release;
    {
      const std::lock_guard<std::mutex> lock(mutex);
      auto& kept = scorers[fmt::format("{}|{}|{}", models, personalized, p808_features)];
      if (!kept) {
        dnsmos::Options options;
        options.p835 = personalized ? dnsmos::P835Model::personalized : dnsmos::P835Model::regular;
        options.p808_features = *features;
        kept = std::make_shared<const dnsmos::Scorer>(models::dnsmos_models_dir(models), options);
      }
      scorer = kept;
    }
    try {
      clip = dnsmos::clip_json(scorer->score({audio.data(), std::size_t(audio.size())}, sample_rate));
    } catch (const Error& e) {  // the clip itself is wrong (NaN, infinite): the caller's argument
      if (e.category() != ErrorCategory::audio) throw;
      throw py::value_error(std::string("samples: ") + e.what());
    }
  }
  return to_python(clip);
}

}  // namespace

PYBIND11_MODULE(_runs, m) {
  m.doc() = "aeval's runs (use the aeval package, not this module)";
  py::register_exception_translator([](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const Error& error) {
      PyErr_SetString(PyExc_RuntimeError, fmt::format("{} error: {}", to_string(error.category()), error.what()).c_str());
    }
  });
  m.def("register_callable", &register_callable, py::arg("name"), py::arg("function"));
  m.def("dnsmos", &dnsmos, py::arg("samples"), py::arg("sample_rate"), py::arg("models"), py::arg("personalized"),
        py::arg("p808_features"));
  m.def("run", &run, py::arg("task"), py::arg("model"), py::arg("dataset"), py::arg("prompt"), py::arg("post_process"),
        py::arg("evaluators"), py::arg("aggregators"), py::arg("sets"), py::arg("registries"), py::arg("output"),
        py::arg("limit"), py::arg("jobs"), py::arg("use_cache"), py::arg("quiet"), py::arg("command_line"));
}

}  // namespace aeval::python
