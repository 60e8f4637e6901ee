#pragma once
// One of UltraEval-Audio's Python classes (a model, or an evaluator) hosted by aeval's bridge
// (uea_model_bridge.py) in a process of its own, built from UEA's tree with its entry's arguments as
// UEA's registry builds it. Starting it describes the class, builds the @isolated environments it needs
// as UEA's env_setup would (uea_environment.hpp), starts the bridge and waits for the class to load, so a
// class that cannot run here stops a run before any sample, in one line saying what is missing.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "aeval/models/model.hpp"

namespace aeval::uea {

struct UeaClassProcess {
  std::string name;                 // the entry, for messages and the run log
  std::filesystem::path root;       // UEA's tree: the bridge's working folder, as UEA runs from its checkout
  std::string class_path;           // audio_evals.models.mini_cpm.MiniCPMo
  nlohmann::ordered_json args;      // the entry's arguments, as PyYAML reads them
  std::string python;               // the interpreter hosting UEA's framework
  std::string role = "model";       // "model": inference(prompt); "evaluator": __call__(pred, ref, **row)
  // UEA model entries the class builds itself (an evaluator's model_name): their environments are built first.
  std::vector<std::string> models_used;
  std::optional<int> gpu_id;
  int max_concurrency = 1;
  double timeout_seconds = 3600;
  int max_restarts = 3;
};

// A UEA entry of a class no aeval class stands for natively, as the arguments of the aeval class that hosts it
// (uea_model, uea-python-evaluator): {uea_class, uea_root, uea_args as written}. Throws aeval::Error (config) when
// the tree lacks the class's module (a registry-only folder cannot tell, and passes).
YAML::Node uea_class_args(const YAML::Node& uea_args, const std::filesystem::path& uea_root, const std::string& path);

// The host interpreter: `given` when not empty, else $AEVAL_UEA_PYTHON, else python3.
std::string uea_host_python(const std::string& given);

// The bridge process, started and loaded (a process model: docs/process-protocol.md). `identity` receives
// what its answers depend on: the class, its arguments, its module's code and the bridge.
std::unique_ptr<models::Model> start_uea_class(const UeaClassProcess& spec, nlohmann::ordered_json& identity);

}  // namespace aeval::uea
