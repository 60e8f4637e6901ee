#include "models/process_model.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "util/sha256.hpp"
#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "util/subprocess.hpp"
#include "util/untrusted_json.hpp"
#include "models/model_classes.hpp"
#include "models/python_env.hpp"

namespace aeval::models {

namespace {

constexpr std::size_t kStderrTail = 8;

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return "stopped";
}

// Reads one line (without the newline) from a pipe; false at end of file.
bool read_line(std::FILE* in, std::string& line) {
  line.clear();
  for (int c; (c = std::fgetc(in)) != EOF;) {
    if (c == '\n') return true;
    line += char(c);
  }
  return !line.empty();
}

// The file an audio part names: the WAV written for it, or, for a model that reads no converted audio
// (input_sample_rate 0), the prompt's own file as the dataset locates it.
nlohmann::json audio_path(const Request& request, const nlohmann::json& written, std::size_t index) {
  if (index < written.size()) return written[index];
  if (index < request.audio_files.size()) return std::filesystem::absolute(request.audio_files[index]).string();
  return nullptr;
}

class ProcessModel final : public BlockingModel {
 public:
  explicit ProcessModel(ProcessModelConfig config) : config_(std::move(config)) {
    if (config_.command.empty()) throw Error(ErrorCategory::config, "process model '" + config_.name + "': empty command");
    identity_ = {{"backend", "process"}, {"name", config_.name}, {"command", config_.command},
                 {"input_sample_rate", config_.input_sample_rate}, {"protocol", "aeval NDJSON v1"}};
    if (config_.bitrate_kbps > 0) identity_["bitrate_kbps"] = config_.bitrate_kbps;
    // Scripts named in the command are fingerprinted: changing the code changes the identity.
    for (const auto& part : config_.command) {
      const std::filesystem::path p = config_.working_dir.empty() ? std::filesystem::path(part) : config_.working_dir / part;
      if (std::filesystem::is_regular_file(p)) identity_["files"][part] = sha256_of_file(p);
    }
    char pattern[] = "/tmp/aeval-model-XXXXXX";
    if (!mkdtemp(pattern)) throw Error(ErrorCategory::data, "process model: cannot create a temporary folder");
    audio_dir_ = pattern;
    if (config_.start_at_once) {
      try {
        ensure_running();
      } catch (...) {
        stop();  // the reading thread ends with the process: a constructor that throws runs no destructor
        std::error_code ignored;
        std::filesystem::remove_all(audio_dir_, ignored);
        throw;
      }
    }
  }

  ~ProcessModel() override {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(audio_dir_, ignored);
  }

  Response compute(const Request& request) override {
    const auto start = std::chrono::steady_clock::now();
    // The request belongs to the process that is running when it is
    // registered, so a death between the start check and now cannot strand it.
    std::string id;
    std::uint64_t generation = 0;
    while (id.empty()) {
      ensure_running();
      std::lock_guard lock(mutex_);
      if (!running_) continue;
      id = std::to_string(next_id_++);
      generation = generation_;
      pending_[id] = Pending{};
      pending_[id].generation = generation;
    }
    // Audio files for this request, removed whatever happens.
    std::vector<std::filesystem::path> files;
    struct Cleanup {
      std::vector<std::filesystem::path>& files;
      ~Cleanup() {
        std::error_code ignored;
        for (const auto& f : files) std::filesystem::remove(f, ignored);
      }
    } cleanup{files};
    nlohmann::json audio = nlohmann::json::array();
    for (std::size_t k = 0; k < request.audio.size(); ++k) {
      files.push_back(audio_dir_ / fmt::format("{}-{}.wav", id, k));
      write_wav(files.back(), request.audio[k]);
      audio.push_back(files.back().string());
    }
    nlohmann::json messages = nlohmann::json::array();
    for (const auto& m : request.messages) {
      nlohmann::json content = nlohmann::json::array();
      for (const auto& part : m.parts)
        content.push_back(part.type == Part::Type::audio
                              ? nlohmann::json{{"type", "audio"}, {"path", audio_path(request, audio, part.audio_index)}}
                              : nlohmann::json{{"type", "text"}, {"text", part.text}});
      messages.push_back({{"role", m.role}, {"content", content}});
    }
    // Where the process may put audio (codecs, TTS) or an embedding (embedders) it answers with.
    files.push_back(audio_dir_ / fmt::format("{}-out.wav", id));
    files.push_back(audio_dir_ / fmt::format("{}-out.npy", id));
    nlohmann::ordered_json line = {{"type", "request"},
                                 {"id", id},
                                 {"sample_id", request.sample_id},
                                 {"messages", messages},
                                 {"fields", request.fields},
                                 {"audio", audio},
                                 {"output_audio", files[files.size() - 2].string()},
                                 {"output_embedding", files.back().string()}};
    if (!request.structure.is_null()) line["prompt"] = request.structure;
    if (!request.inference_kwargs.empty()) line["kwargs"] = request.inference_kwargs;
    send(line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");

    std::unique_lock lock(mutex_);
    const auto deadline = start + std::chrono::duration<double>(config_.timeout_seconds);
    const bool answered = changed_.wait_until(lock, deadline, [&] { return pending_[id].done; });
    Pending result = pending_[id];
    pending_.erase(id);
    if (!answered)
      throw Error(ErrorCategory::model, fmt::format("process model '{}' gave no answer to sample '{}' within {} s",
                                                    config_.name, request.sample_id, config_.timeout_seconds));
    if (!result.error.empty()) throw Error(ErrorCategory::model, result.error);
    Response r;
    r.text = result.text;
    if (!result.audio.empty()) {
      try {
        r.audio = to_mono(decode_audio(result.audio));
      } catch (const Error& e) {
        throw Error(ErrorCategory::model, fmt::format("process model '{}' answered sample '{}' with audio that cannot be "
                                                      "read: {}",
                                                      config_.name, request.sample_id, e.what()));
      }
    }
    r.scores = std::move(result.scores);
    if (!result.embedding.empty()) {
      try {
        r.embedding = read_npy(result.embedding);
      } catch (const Error& e) {
        throw Error(ErrorCategory::model, fmt::format("process model '{}' answered sample '{}' with an embedding that "
                                                      "cannot be read: {}",
                                                      config_.name, request.sample_id, e.what()));
      }
    }
    r.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

  int input_sample_rate() const override { return config_.input_sample_rate; }
  int max_concurrency() const override { return config_.max_concurrency; }
  nlohmann::json identity() const override { return identity_; }
  void set_log(std::function<void(const nlohmann::json&)> sink) override {
    std::lock_guard lock(mutex_);
    log_ = std::move(sink);
  }

 private:
  struct Pending {
    std::uint64_t generation = 0;
    bool done = false;
    std::string text, error;
    std::string audio;      // the WAV file an audio answer names
    std::string embedding;  // the .npy file an embedding answer names
    nlohmann::json scores;
  };

  void log(nlohmann::json event) {
    std::function<void(const nlohmann::json&)> sink;
    {
      std::lock_guard lock(mutex_);
      sink = log_;
    }
    event["model"] = config_.name;
    if (sink) sink(event);
  }

  // Starts the process when it is not running (the first time, or after a death).
  void ensure_running() {
    std::lock_guard start_lock(start_mutex_);
    {
      std::lock_guard lock(mutex_);
      if (running_) return;
      if (started_ > config_.max_restarts)
        throw Error(ErrorCategory::model, fmt::format("process model '{}' died {} times; not restarting it ({})",
                                                      config_.name, started_, last_death_));
    }
    if (stdout_thread_.joinable()) stdout_thread_.join();
    launch();
  }

  void launch() {
    const detail::Child child = detail::spawn(config_.command, config_.working_dir);
    const pid_t pid = child.pid;
    {
      std::lock_guard lock(mutex_);
      pid_ = pid;
      stdin_fd_ = child.stdin_fd;
      running_ = true;
      ready_ = false;
      start_error_.clear();
      ++generation_;
      ++started_;
      stderr_tail_.clear();
    }
    std::FILE* out = fdopen(child.stdout_fd, "r");
    std::FILE* err = fdopen(child.stderr_fd, "r");
    stdout_thread_ = std::thread([this, out, err, generation = generation_] {
      std::thread stderr_thread([this, err] { read_stderr(err); });
      read_stdout(out, generation);
      stderr_thread.join();  // the process has closed both; every stderr line is in the tail
      died(generation);
    });

    std::unique_lock lock(mutex_);
    const bool ok = changed_.wait_for(lock, std::chrono::duration<double>(config_.timeout_seconds),
                                      [&] { return ready_ || !running_; });
    if (ok && ready_) return;
    const bool still_running = running_;
    const std::string why = !start_error_.empty() ? start_error_
                            : still_running       ? fmt::format("sent no ready line within {} s", config_.timeout_seconds)
                                                  : last_death_;
    lock.unlock();
    if (still_running) kill(pid, SIGKILL);
    throw Error(ErrorCategory::model, fmt::format("process model '{}' did not start: {}", config_.name, why));
  }

  void read_stdout(std::FILE* out, std::uint64_t generation) {
    std::string line;
    while (read_line(out, line)) {
      ProcessReply reply = read_process_reply(line);
      if (reply.type == ProcessReply::Type::ready) {
        log({{"event", "model_ready"}, {"hello", reply.message}});
        std::lock_guard lock(mutex_);
        if (generation == generation_) ready_ = true;
        changed_.notify_all();
        continue;
      }
      std::unique_lock lock(mutex_);
      // An error answering no request before ready: why the process cannot load (it exits next).
      if (reply.type == ProcessReply::Type::error && reply.id.empty() && !ready_ && generation == generation_) {
        start_error_ = reply.error;
        continue;
      }
      auto it = pending_.find(reply.id);
      if (reply.type == ProcessReply::Type::other || it == pending_.end()) {
        lock.unlock();
        log({{"event", "model_unexpected_output"}, {"line", line.substr(0, 500)}});
        continue;
      }
      if (reply.error.empty()) {
        if (reply.text) it->second.text = std::move(*reply.text);
        if (reply.audio) it->second.audio = std::move(*reply.audio);
        if (reply.embedding) it->second.embedding = std::move(*reply.embedding);
        it->second.scores = std::move(reply.scores);
      } else {
        it->second.error = fmt::format("process model '{}': {}", config_.name, reply.error);
      }
      it->second.done = true;
      changed_.notify_all();
    }
    std::fclose(out);
  }

  void read_stderr(std::FILE* err) {
    std::string line;
    while (read_line(err, line)) {
      {
        std::lock_guard lock(mutex_);
        stderr_tail_.push_back(line);
        if (stderr_tail_.size() > kStderrTail) stderr_tail_.pop_front();
      }
      log({{"event", "model_stderr"}, {"line", line}});
    }
    std::fclose(err);
  }

  // The process closed its output: reap it and fail what it left unanswered.
  void died(std::uint64_t generation) {
    int status = 0;
    pid_t pid;
    {
      std::lock_guard lock(mutex_);
      pid = pid_;
    }
    waitpid(pid, &status, 0);
    std::unique_lock lock(mutex_);
    std::string tail;
    for (const auto& l : stderr_tail_) tail += (tail.empty() ? "" : " | ") + l;
    last_death_ = fmt::format("process model '{}' {}{}", config_.name, describe_exit(status),
                              tail.empty() ? "" : fmt::format(" (last stderr: \"{}\")", tail));
    for (auto& [id, p] : pending_)
      if (p.generation == generation && !p.done) p.done = true, p.error = last_death_;
    if (stdin_fd_ >= 0) close(stdin_fd_);
    stdin_fd_ = -1;
    running_ = false;
    changed_.notify_all();
    const bool expected = stopping_;
    const std::string reason = last_death_;
    lock.unlock();
    if (!expected) log({{"event", "model_died"}, {"reason", reason}});
  }

  void send(const std::string& line) {
    std::lock_guard lock(write_mutex_);
    int fd;
    {
      std::lock_guard state(mutex_);
      fd = stdin_fd_;
    }
    for (std::size_t done = 0; fd >= 0 && done < line.size();) {
      const ssize_t n = write(fd, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the process is gone; died() answers the request
      done += std::size_t(n);
    }
  }

  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      if (stdin_fd_ >= 0) close(stdin_fd_);  // the protocol's "end"
      stdin_fd_ = -1;
    }
    if (!stdout_thread_.joinable()) return;
    // A process that ignores the end of its input is killed after a grace period.
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, std::chrono::seconds(5), [&] { return !running_; })) kill(pid_, SIGKILL);
    lock.unlock();
    stdout_thread_.join();
  }

  ProcessModelConfig config_;
  nlohmann::json identity_;
  std::filesystem::path audio_dir_;
  std::mutex mutex_, start_mutex_, write_mutex_;
  std::condition_variable changed_;
  std::map<std::string, Pending> pending_;
  std::deque<std::string> stderr_tail_;
  std::function<void(const nlohmann::json&)> log_;
  std::thread stdout_thread_;
  std::string last_death_, start_error_;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  bool running_ = false, ready_ = false, stopping_ = false;
  int started_ = 0;
  std::uint64_t generation_ = 0, next_id_ = 1;
};

}  // namespace

ProcessReply read_process_reply(const std::string& line) {
  ProcessReply reply;
  std::string too_deep;  // a reply nested so deep still answers its request, with an error
  try {
    reply.message = parse_untrusted_json(line, /*allow_exceptions=*/false);
  } catch (const JsonTooDeep& e) {
    reply.message = without_deep_members(line).value;
    too_deep = std::string("its reply is ") + e.what();
  }
  const nlohmann::json& message = reply.message;
  // Any JSON at all may arrive: a field of the wrong type is just not the protocol's.
  const auto string_field = [&](const char* key) {
    return message.is_object() && message.contains(key) && message[key].is_string() ? message[key].get<std::string>()
                                                                                     : std::string();
  };
  const std::string type = string_field("type");
  if (type == "ready") {
    reply.type = ProcessReply::Type::ready;
    return reply;
  }
  reply.id = string_field("id");
  if (type != "response" && type != "error") return reply;
  reply.type = type == "response" ? ProcessReply::Type::response : ProcessReply::Type::error;
  const bool text = message.contains("text") && message["text"].is_string();
  const bool audio = message.contains("audio") && message["audio"].is_string();
  const bool embedding = message.contains("embedding") && message["embedding"].is_string();
  bool scores = message.contains("scores") && message["scores"].is_object() && !message["scores"].empty();
  if (scores)
    for (const auto& [name, value] : message["scores"].items()) scores = scores && value.is_number();
  if (!too_deep.empty()) {
    reply.error = too_deep;
  } else if (reply.type == ProcessReply::Type::response && message.contains("scores") && !scores) {
    reply.error = "its scores are not an object of numbers: " + message["scores"].dump().substr(0, 200);
  } else if (reply.type == ProcessReply::Type::response && (text || audio || embedding || scores)) {
    if (text) reply.text = message["text"];
    if (audio) reply.audio = message["audio"];
    if (embedding) reply.embedding = message["embedding"];
    if (scores) reply.scores = message["scores"];
  } else {
    reply.error = string_field("message");
    // Never empty: an empty error would pass for an empty answer.
    if (reply.error.empty())
      reply.error = reply.type == ProcessReply::Type::error
                        ? "an error reply without a message"
                        : "a response with none of text, audio, embedding, or scores as an object of numbers";
  }
  return reply;
}

std::unique_ptr<Model> make_process_model(const ProcessModelConfig& config) {
  return std::make_unique<ProcessModel>(config);
}

namespace {
namespace arg = registry::arg;
const ProcessModelConfig kProcessDefaults;
const ModelClasses::Registration kProcessClass{
    {registry::Kind::model, "process",
     "Any program speaking aeval's NDJSON protocol on stdin/stdout, started once and kept loaded "
     "(docs/process-protocol.md)",
     {arg::required_texts("command", "argv, e.g. [python3, my_model.py]; relative paths from this YAML's folder"),
      arg::integer("input_sample_rate", kProcessDefaults.input_sample_rate, "rate of the WAV files it gets (0: no audio)")
          .at_least(0),
      arg::integer("max_concurrency", kProcessDefaults.max_concurrency, "requests in flight").at_least(1),
      arg::number("timeout_seconds", kProcessDefaults.timeout_seconds, "for the ready line and for each answer").above(0),
      arg::integer("max_restarts", kProcessDefaults.max_restarts, "restarts after the process dies").at_least(0),
      arg::number("bitrate_kbps", kProcessDefaults.bitrate_kbps, "codecs: the bitrate leaderboards show"),
      arg::path("requirements", "",
                "a requirements.txt: the command's python3/python runs in a virtual environment built once for it")}},
    [](const registry::Args& args) {
      ProcessModelConfig config;
      config.name = args.entry().name;
      config.command = args.strings("command");
      config.working_dir = args.entry().file.parent_path();
      config.input_sample_rate = args.integer("input_sample_rate");
      config.max_concurrency = args.integer("max_concurrency");
      config.timeout_seconds = args.number("timeout_seconds");
      config.max_restarts = args.integer("max_restarts");
      config.bitrate_kbps = args.number("bitrate_kbps");
      if (const auto requirements = args.path("requirements"); !requirements.empty()) {
        if (config.command.empty() || (config.command[0] != "python3" && config.command[0] != "python"))
          args.fail("has requirements, so its command must start with python3 (run in the environment)");
        try {
          config.command[0] = python_environment(requirements).string();
        } catch (const Error& e) {
          throw Error(e.category(), fmt::format("model '{}': {}", config.name, e.what()));
        }
      }
      return make_process_model(config);
    }};
}  // namespace

}  // namespace aeval::models
