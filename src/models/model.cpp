#include "aeval/models/model.hpp"

#include <fmt/format.h>

#include <future>

#include "aeval/error.hpp"

namespace aeval::models {

namespace {
thread_local WaitObserver* observer = nullptr;
thread_local int waits = 0;
}  // namespace

std::string text_to_speak(const Request& request) {
  std::string text;
  if (request.fields.contains("text") && request.fields["text"].is_string()) {
    text = request.fields["text"];
  } else {
    for (auto m = request.messages.rbegin(); m != request.messages.rend(); ++m) {
      if (m->role != "user") continue;
      for (const auto& part : m->parts)
        if (part.type == Part::Type::text) text += (text.empty() ? "" : " ") + part.text;
      break;
    }
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(ErrorCategory::data, fmt::format("sample '{}': nothing to speak (the prompt gave no text)", request.sample_id));
  return text;
}

void observe_waits(WaitObserver* o) { observer = o; }

WaitingOnModel::WaitingOnModel() {
  if (waits++ == 0 && observer) observer->waiting(true);
}

WaitingOnModel::~WaitingOnModel() {
  if (--waits == 0 && observer) observer->waiting(false);
}

Response Model::infer_and_wait(Request request) {
  const WaitingOnModel waiting;
  std::promise<Response> answer;
  auto future = answer.get_future();
  infer(std::move(request), [&answer](std::exception_ptr error, Response response) {
    if (error)
      answer.set_exception(std::move(error));
    else
      answer.set_value(std::move(response));
  });
  return future.get();
}

void BlockingModel::infer(Request request, Completion done) {
  complete(done, [&] {
    const WaitingOnModel waiting;
    return compute(request);
  });
}

}  // namespace aeval::models
