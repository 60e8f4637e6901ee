#include "models/each_audio.hpp"

#include <filesystem>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace aeval::models {

namespace {

std::size_t audio_parts(const Request& request) {
  std::size_t n = 0;
  for (const auto& m : request.messages)
    for (const auto& p : m.parts) n += p.type == Part::Type::audio;
  return n;
}

// The request (whose audio is given apart) with its text and its clip `clip` (the clip-th audio part) alone.
Request with_one_clip(const Request& rest, const std::vector<Audio>& audio,
                      const std::vector<std::filesystem::path>& audio_files, std::size_t clip) {
  Request one = rest;
  std::size_t seen = 0;
  for (auto& m : one.messages) {
    std::vector<Part> kept;
    for (auto& p : m.parts) {
      if (p.type == Part::Type::text) {
        kept.push_back(std::move(p));
      } else if (seen++ == clip) {
        if (p.audio_index < audio.size()) one.audio.push_back(audio[p.audio_index]);
        if (p.audio_index < audio_files.size()) one.audio_files.push_back(audio_files[p.audio_index]);
        p.audio_index = 0;
        kept.push_back(std::move(p));
      }
    }
    m.parts = std::move(kept);
  }
  return one;
}

// The answers of one request's clips, as they arrive on any thread; the last one completes the request.
struct Answers {
  explicit Answers(std::size_t clips, Completion done) : texts(clips), left(clips), done(std::move(done)) {}
  std::mutex mutex;
  std::vector<std::string> texts;
  std::size_t left;
  double compute_seconds = 0;
  std::exception_ptr error;
  Completion done;
};

class EachAudio final : public Model {
 public:
  explicit EachAudio(std::unique_ptr<Model> owned) : owned_(std::move(owned)), model_(owned_.get()) {}
  explicit EachAudio(Model& borrowed) : model_(&borrowed) {}

  // The clips' requests are in flight at once: the endpoint's own budget bounds what it is sent.
  void infer(Request request, Completion done) override {
    const std::size_t clips = audio_parts(request);
    if (clips <= 1) return model_->infer(std::move(request), std::move(done));
    auto answers = std::make_shared<Answers>(clips, std::move(done));
    // Each clip's request copies the rest of the request, and its own clip only.
    const std::vector<Audio> audio = std::move(request.audio);
    const std::vector<std::filesystem::path> audio_files = std::move(request.audio_files);
    request.audio.clear();
    request.audio_files.clear();
    for (std::size_t clip = 0; clip < clips; ++clip)
      model_->infer(with_one_clip(request, audio, audio_files, clip), [answers, clip](std::exception_ptr error, Response response) {
        {
          const std::lock_guard lock(answers->mutex);
          if (error && !answers->error) answers->error = error;
          answers->texts[clip] = std::move(response.text);
          answers->compute_seconds += response.compute_seconds;
          if (--answers->left > 0) return;
        }
        Response all;
        if (!answers->error) {
          all.text = nlohmann::json(answers->texts).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
          all.compute_seconds = answers->compute_seconds;
        }
        answers->done(answers->error, std::move(all));
      });
  }
  int input_sample_rate() const override { return model_->input_sample_rate(); }
  bool reads_audio_files() const override { return model_->reads_audio_files(); }
  int max_concurrency() const override { return model_->max_concurrency(); }
  bool cacheable() const override { return model_->cacheable(); }
  // The inner model's, marked: its answers (one a clip) are not that model's to a request of all the clips, and
  // the response cache keys answers by the model's identity.
  nlohmann::json identity() const override {
    nlohmann::json id = model_->identity();
    if (id.is_object()) id["asked"] = "once per audio clip";
    return id;
  }
  void set_log(std::function<void(const nlohmann::json&)> sink) override { model_->set_log(std::move(sink)); }

 private:
  std::unique_ptr<Model> owned_;  // null when borrowed
  Model* model_;
};

}  // namespace

std::unique_ptr<Model> ask_each_audio(std::unique_ptr<Model> model) {
  return std::make_unique<EachAudio>(std::move(model));
}

std::unique_ptr<Model> ask_each_audio(Model& model) { return std::make_unique<EachAudio>(model); }

}  // namespace aeval::models
