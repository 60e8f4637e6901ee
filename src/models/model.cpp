#include "aeval/models/model.hpp"

#include <future>

namespace aeval::models {

Response Model::infer_and_wait(Request request) {
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
  complete(done, [&] { return compute(request); });
}

}  // namespace aeval::models
