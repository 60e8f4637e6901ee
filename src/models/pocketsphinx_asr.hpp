#pragma once
// Built-in English ASR on libpocketsphinx (linked natively), with Debian's
// pocketsphinx-en-us acoustic model, language model and dictionary. Each
// file is decoded on its own: its transcript does not depend on which
// pooled decoder runs it or on what that decoder decoded before.
#include <filesystem>
#include <memory>

#include "aeval/models/model.hpp"

namespace aeval::models {

struct PocketSphinxConfig {
  std::filesystem::path acoustic_model = "/usr/share/pocketsphinx/model/en-us/en-us";
  std::filesystem::path language_model = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin";
  std::filesystem::path dictionary = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict";
  int max_concurrency = 2;  // one decoder per concurrent call
};

// Throws aeval::Error (model) when a model file is missing, naming the
// Debian package that provides it.
std::unique_ptr<Model> make_pocketsphinx_asr(const PocketSphinxConfig& config);

}  // namespace aeval::models
