#include "aeval/models/model.hpp"

#include <future>

namespace aeval::models {

namespace {
thread_local WaitObserver* observer = nullptr;
thread_local int waits = 0;
}  // namespace

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
